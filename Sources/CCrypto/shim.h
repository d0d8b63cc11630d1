// A small door into OpenSSL's libcrypto (Debian's libssl-dev) for Swift: SHA-256 through the
// EVP digest interface, the one OpenSSL 3 keeps undeprecated, reading PEM certificates as
// libcurl's CA file loading does, and verifying a chain a server showed as a client's trust
// store would. Only the Swift module `Digests` imports this module.

#ifndef STAGEBUILD_CCRYPTO_SHIM_H
#define STAGEBUILD_CCRYPTO_SHIM_H

#include <stddef.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// A fresh SHA-256 context, or NULL when OpenSSL cannot make one (out of memory).
static inline EVP_MD_CTX *ccrypto_sha256_new(void) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context == NULL) return NULL;
    if (EVP_DigestInit_ex(context, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(context);
        return NULL;
    }
    return context;
}

// Adds bytes; returns 1 on success.
static inline int ccrypto_sha256_update(EVP_MD_CTX *context, const void *bytes, size_t count) {
    return EVP_DigestUpdate(context, bytes, count);
}

// Writes the 32-byte digest to `digest`; returns 1 on success. The context cannot be updated after.
static inline int ccrypto_sha256_final(EVP_MD_CTX *context, unsigned char *digest) {
    unsigned int length = 0;
    return EVP_DigestFinal_ex(context, digest, &length) == 1 && length == 32;
}

static inline void ccrypto_sha256_free(EVP_MD_CTX *context) {
    EVP_MD_CTX_free(context);
}

// A fresh SHA-1 context, or NULL. SHA-1 names content as git's default object format does (a
// blob's ID); it is never used to trust anything.
static inline EVP_MD_CTX *ccrypto_sha1_new(void) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context == NULL) return NULL;
    if (EVP_DigestInit_ex(context, EVP_sha1(), NULL) != 1) {
        EVP_MD_CTX_free(context);
        return NULL;
    }
    return context;
}

// Writes the 20-byte SHA-1 digest to `digest`; returns 1 on success. Updates go through
// ccrypto_sha256_update (any EVP context) and the context is freed with ccrypto_sha256_free.
static inline int ccrypto_sha1_final(EVP_MD_CTX *context, unsigned char *digest) {
    unsigned int length = 0;
    return EVP_DigestFinal_ex(context, digest, &length) == 1 && length == 20;
}

// Reads every PEM certificate in `bytes` with PEM_read_bio_X509. Returns how many were read;
// when one cannot be read (damaged base64, DER that is no certificate), returns -1 and stores
// its 0-based index in `failing`. Text outside BEGIN/END lines is skipped, as OpenSSL does.
static inline long ccrypto_pem_certificate_count(const void *bytes, int length, long *failing) {
    BIO *bio = BIO_new_mem_buf(bytes, length);
    if (bio == NULL) return -1;
    long count = 0;
    ERR_clear_error();
    for (;;) {
        X509 *certificate = PEM_read_bio_X509(bio, NULL, NULL, NULL);
        if (certificate == NULL) {
            unsigned long error = ERR_peek_last_error();
            ERR_clear_error();
            BIO_free(bio);
            if (ERR_GET_LIB(error) == ERR_LIB_PEM && ERR_GET_REASON(error) == PEM_R_NO_START_LINE) return count;
            *failing = count;
            return -1;
        }
        X509_free(certificate);
        count += 1;
    }
}

// Reads one PEM certificate from text; NULL when it cannot be read.
static inline X509 *ccrypto_read_certificate(const char *pem) {
    BIO *bio = BIO_new_mem_buf(pem, -1);
    if (bio == NULL) return NULL;
    X509 *certificate = PEM_read_bio_X509(bio, NULL, NULL, NULL);
    BIO_free(bio);
    return certificate;
}

// OpenSSL's words for an X509_V_ERR_* code, e.g. "certificate has expired" for 10.
static inline const char *ccrypto_verify_error_string(long code) {
    return X509_verify_cert_error_string(code);
}

// The certificates after the leaf, as the untrusted intermediates a verification may use.
static inline STACK_OF(X509) *ccrypto_untrusted(const char *const *pems, int count) {
    STACK_OF(X509) *untrusted = sk_X509_new_null();
    for (int index = 1; index < count && untrusted != NULL; index++) {
        X509 *certificate = ccrypto_read_certificate(pems[index]);
        if (certificate != NULL) sk_X509_push(untrusted, certificate);
    }
    return untrusted;
}

// What a chain shown by a server comes to under a trust store.
typedef struct {
    // X509_V_OK (0) when the chain leads to a trusted root and every certificate is in its
    // validity period; else OpenSSL's X509_V_ERR_* code (x509_vfy.h). -1 when the leaf cannot
    // be read.
    int verify_error;
    // 1 when the leaf names the host (X509_check_host, or X509_check_ip_asc for an IP
    // literal: subjectAltName first, the CN only without DNS names, as OpenSSL does).
    int host_matches;
} ccrypto_chain_check;

// Verifies `pems[0]` (the leaf) with `pems[1...]` as untrusted intermediates against the CA
// file, or the system's default trust store when `ca_file` is NULL, at the time `now` (seconds
// since 1970), and checks the leaf's name against `host`.
// With as_tls_client 1 the chain is checked as libssl checks a server's during a handshake:
// for the TLS server purpose (extendedKeyUsage) and at security level 2, Debian's default
// (weak signature digests and short keys refused), not only for trust and dates.
static inline ccrypto_chain_check ccrypto_check_chain(
    const char *const *pems, int count, const char *ca_file, const char *host, int host_is_ip, long now,
    int as_tls_client
) {
    ccrypto_chain_check check = { -1, 0 };
    if (count < 1) return check;
    X509 *leaf = ccrypto_read_certificate(pems[0]);
    if (leaf == NULL) return check;
    STACK_OF(X509) *untrusted = ccrypto_untrusted(pems, count);
    X509_STORE *store = X509_STORE_new();
    X509_STORE_CTX *context = X509_STORE_CTX_new();
    if (store != NULL && context != NULL) {
        int loaded = ca_file != NULL ? X509_STORE_load_file(store, ca_file) : X509_STORE_set_default_paths(store);
        if (loaded == 1 && X509_STORE_CTX_init(context, store, leaf, untrusted) == 1) {
            X509_STORE_CTX_set_time(context, 0, (time_t)now);
            if (as_tls_client) {
                X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER);
                X509_VERIFY_PARAM_set_auth_level(X509_STORE_CTX_get0_param(context), 2);
            }
            check.verify_error = X509_verify_cert(context) == 1 ? X509_V_OK : X509_STORE_CTX_get_error(context);
        }
    }
    check.host_matches = host_is_ip ? X509_check_ip_asc(leaf, host, 0) == 1 : X509_check_host(leaf, host, strlen(host), 0, NULL) == 1;
    X509_STORE_CTX_free(context);
    X509_STORE_free(store);
    sk_X509_pop_free(untrusted, X509_free);
    X509_free(leaf);
    ERR_clear_error();
    return check;
}

// A certificate's SubjectPublicKeyInfo in DER (what a pin hashes) in `*der` (free with
// OPENSSL_free); returns its length, or 0 when the certificate cannot be read.
static inline int ccrypto_public_key_der(const char *pem, unsigned char **der) {
    X509 *certificate = ccrypto_read_certificate(pem);
    if (certificate == NULL) return 0;
    int length = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(certificate), der);
    X509_free(certificate);
    ERR_clear_error();
    return length < 0 ? 0 : length;
}

// Facts of a certificate that Apple's trust requirements read.
typedef struct {
    // 1 when an extendedKeyUsage extension holds serverAuth, 0 when it lacks it, -1 without one.
    int server_auth;
    // 1 when the extension holds anyExtendedKeyUsage (2.5.29.37.0), or Microsoft's or Netscape's
    // Server Gated Crypto purpose, which Apple's SSL policy accepts in place of serverAuth.
    int any_usage;
    int server_gated_crypto;
    // How many DNS and IP names its subjectAltName holds.
    int san_names;
    // EVP_PKEY_RSA, EVP_PKEY_EC, ... (EVP_PKEY_get_base_id) and the key's size in bits.
    int key_type;
    int key_bits;
    // The signature's digest NID (e.g. NID_sha256, NID_sha1), NID_undef when unknown.
    int signature_digest;
    // notBefore and notAfter in seconds since 1970.
    long long not_before;
    long long not_after;
    // 1 when the certificate is its own issuer (a root, or a self-signed server certificate).
    int self_issued;
    // The subject as libcurl's certificate info writes it ("CN = name, O = org"), cut to fit.
    char subject[256];
    // 0 when the certificate cannot be read.
    int readable;
} ccrypto_certificate_facts;

static inline long long ccrypto_seconds(const ASN1_TIME *time) {
    struct tm parts;
    memset(&parts, 0, sizeof parts);
    if (time == NULL || ASN1_TIME_to_tm(time, &parts) != 1) return 0;
    return (long long)timegm(&parts);
}

static inline ccrypto_certificate_facts ccrypto_certificate_facts_of(X509 *certificate) {
    ccrypto_certificate_facts facts;
    memset(&facts, 0, sizeof facts);
    facts.server_auth = -1;
    facts.signature_digest = NID_undef;
    facts.readable = 1;
    if (X509_get_extension_flags(certificate) & EXFLAG_XKUSAGE) {
        uint32_t usage = X509_get_extended_key_usage(certificate);
        facts.server_auth = (usage & XKU_SSL_SERVER) ? 1 : 0;
        facts.any_usage = (usage & XKU_ANYEKU) ? 1 : 0;
        facts.server_gated_crypto = (usage & XKU_SGC) ? 1 : 0;
    }
    GENERAL_NAMES *names = X509_get_ext_d2i(certificate, NID_subject_alt_name, NULL, NULL);
    for (int index = 0; names != NULL && index < sk_GENERAL_NAME_num(names); index++) {
        int type = sk_GENERAL_NAME_value(names, index)->type;
        if (type == GEN_DNS || type == GEN_IPADD) facts.san_names += 1;
    }
    GENERAL_NAMES_free(names);
    EVP_PKEY *key = X509_get0_pubkey(certificate);
    if (key != NULL) {
        facts.key_type = EVP_PKEY_get_base_id(key);
        facts.key_bits = EVP_PKEY_get_bits(key);
    }
    int digest = NID_undef;
    if (X509_get_signature_info(certificate, &digest, NULL, NULL, NULL) == 1) facts.signature_digest = digest;
    facts.not_before = ccrypto_seconds(X509_get0_notBefore(certificate));
    facts.not_after = ccrypto_seconds(X509_get0_notAfter(certificate));
    facts.self_issued = (X509_get_extension_flags(certificate) & EXFLAG_SI) ? 1 : 0;
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio != NULL) {
        X509_NAME_print_ex(bio, X509_get_subject_name(certificate), 0, XN_FLAG_ONELINE & ~ASN1_STRFLGS_ESC_MSB);
        int length = BIO_read(bio, facts.subject, (int)sizeof facts.subject - 1);
        facts.subject[length > 0 ? length : 0] = 0;
        BIO_free(bio);
    }
    ERR_clear_error();
    return facts;
}

static inline ccrypto_certificate_facts ccrypto_read_certificate_facts(const char *pem) {
    ccrypto_certificate_facts facts;
    memset(&facts, 0, sizeof facts);
    X509 *certificate = ccrypto_read_certificate(pem);
    if (certificate == NULL) return facts;
    facts = ccrypto_certificate_facts_of(certificate);
    X509_free(certificate);
    return facts;
}

// A trust store of its own, holding only the roots added to it (the device's store a verdict
// is judged against, not this machine's). Free with X509_STORE_free.
static inline X509_STORE *ccrypto_store_new(void) {
    return X509_STORE_new();
}

// Adds every certificate of a PEM file as a trusted root; returns 1 on success.
static inline int ccrypto_store_add_file(X509_STORE *store, const char *path) {
    int loaded = X509_STORE_load_file(store, path);
    ERR_clear_error();
    return loaded == 1;
}

// Adds this machine's default trust store (OpenSSL's default CA file and directory).
static inline int ccrypto_store_add_defaults(X509_STORE *store) {
    int loaded = X509_STORE_set_default_paths(store);
    ERR_clear_error();
    return loaded == 1;
}

// What a chain comes to in a store: OpenSSL's verification result and the chain it built.
typedef struct {
    // As ccrypto_chain_check's verify_error.
    int verify_error;
    // 1 when the last certificate of the built chain came from the store (a trusted root).
    int anchored;
    // The chain built, leaf first, as PEM in one string (free with free()); NULL when none.
    char *chain_pem;
} ccrypto_built_chain;

// Verifies `pems[0]` with `pems[1...]` as untrusted intermediates against `store` at `now`
// (seconds since 1970), and returns the chain OpenSSL built from them and the store's roots.
static inline ccrypto_built_chain ccrypto_build_chain(X509_STORE *store, const char *const *pems, int count, long now) {
    ccrypto_built_chain built = { -1, 0, NULL };
    if (count < 1) return built;
    X509 *leaf = ccrypto_read_certificate(pems[0]);
    if (leaf == NULL) return built;
    STACK_OF(X509) *untrusted = ccrypto_untrusted(pems, count);
    X509_STORE_CTX *context = X509_STORE_CTX_new();
    if (context != NULL && X509_STORE_CTX_init(context, store, leaf, untrusted) == 1) {
        X509_STORE_CTX_set_time(context, 0, (time_t)now);
        built.verify_error = X509_verify_cert(context) == 1 ? X509_V_OK : X509_STORE_CTX_get_error(context);
        STACK_OF(X509) *chain = X509_STORE_CTX_get0_chain(context);
        int length = chain != NULL ? sk_X509_num(chain) : 0;
        built.anchored = length > X509_STORE_CTX_get_num_untrusted(context) ? 1 : 0;
        BIO *bio = BIO_new(BIO_s_mem());
        for (int index = 0; bio != NULL && index < length; index++) PEM_write_bio_X509(bio, sk_X509_value(chain, index));
        char *bytes = NULL;
        long size = bio != NULL ? BIO_get_mem_data(bio, &bytes) : 0;
        if (size > 0 && (built.chain_pem = malloc((size_t)size + 1)) != NULL) {
            memcpy(built.chain_pem, bytes, (size_t)size);
            built.chain_pem[size] = 0;
        }
        BIO_free(bio);
    }
    X509_STORE_CTX_free(context);
    sk_X509_pop_free(untrusted, X509_free);
    X509_free(leaf);
    ERR_clear_error();
    return built;
}

// 1 when the certificate names `host` in its subjectAltName alone, as Apple's SSL policy reads
// it (no CommonName fallback: X509_CHECK_FLAG_NEVER_CHECK_SUBJECT).
static inline int ccrypto_names_host_in_san(const char *pem, const char *host, int host_is_ip) {
    X509 *certificate = ccrypto_read_certificate(pem);
    if (certificate == NULL) return 0;
    int matches = host_is_ip ? X509_check_ip_asc(certificate, host, 0) == 1
        : X509_check_host(certificate, host, strlen(host), X509_CHECK_FLAG_NEVER_CHECK_SUBJECT, NULL) == 1;
    X509_free(certificate);
    ERR_clear_error();
    return matches;
}

#endif
