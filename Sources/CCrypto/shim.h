// A small door into OpenSSL's libcrypto (Debian's libssl-dev) for Swift: SHA-256 through the
// EVP digest interface, the one OpenSSL 3 keeps undeprecated. Only the Swift module `Digests`
// imports this module.

#ifndef STAGEBUILD_CCRYPTO_SHIM_H
#define STAGEBUILD_CCRYPTO_SHIM_H

#include <stddef.h>
#include <openssl/evp.h>

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

#endif
