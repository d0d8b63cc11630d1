// A small door into OpenSSL's libcrypto (Debian's libssl-dev) for Swift: SHA-256 through the
// EVP digest interface, the one OpenSSL 3 keeps undeprecated, and reading PEM certificates as
// libcurl's CA file loading does. Only the Swift module `Digests` imports this module.

#ifndef STAGEBUILD_CCRYPTO_SHIM_H
#define STAGEBUILD_CCRYPTO_SHIM_H

#include <stddef.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

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

#endif
