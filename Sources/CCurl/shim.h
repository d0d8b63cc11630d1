// Typed doors into libcurl for Swift.
//
// curl_easy_setopt and curl_easy_getinfo are variadic C functions, which Swift cannot call.
// Each wrapper below fixes the type of the third argument so that Swift sees an ordinary C
// function. Only options and infos of libcurl 7.88.1 (Debian bookworm) are used by callers.
// Only the Swift module `Curl` imports this module.

#ifndef STAGEBUILD_CCURL_SHIM_H
#define STAGEBUILD_CCURL_SHIM_H

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <openssl/ssl.h>

// Callback shapes, as documented for CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION,
// CURLOPT_XFERINFOFUNCTION and CURLOPT_DEBUGFUNCTION.
typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*ccurl_xferinfo_callback)(void *context, curl_off_t download_total,
                                       curl_off_t download_now, curl_off_t upload_total,
                                       curl_off_t upload_now);
typedef int (*ccurl_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size,
                                    void *context);

// MARK: - curl_easy_setopt, one function per argument type

static inline CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option,
                                                const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option,
                                               curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option,
                                               struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_write_function(CURL *handle, CURLoption option,
                                                        ccurl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_xferinfo_function(CURL *handle,
                                                           ccurl_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

static inline CURLcode ccurl_easy_setopt_debug_function(CURL *handle,
                                                        ccurl_debug_callback value) {
    return curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, value);
}

// MARK: - curl_easy_getinfo, one function per result type

static inline CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info,
                                                 const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info,
                                                curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_easy_getinfo_certinfo(CURL *handle,
                                                   struct curl_certinfo **value) {
    return curl_easy_getinfo(handle, CURLINFO_CERTINFO, value);
}

// MARK: - curl_global_init and CURLMsg

static inline CURLcode ccurl_global_init_all(void) {
    return curl_global_init(CURL_GLOBAL_ALL);
}

// libcurl's own description of itself, for the version this program runs with.
static inline const curl_version_info_data *ccurl_version_info_now(void) {
    return curl_version_info(CURLVERSION_NOW);
}

// The transfer's result of a CURLMSG_DONE message (the union member `data.result`).
static inline CURLcode ccurl_message_result(const CURLMsg *message) {
    return message->data.result;
}

// The negotiated TLS version, cipher and ALPN protocol of the handle's last connection, read
// with libssl's own calls from CURLINFO_TLS_SSL_PTR (libcurl 7.88 has no info for them).
// Returns 0 when the connection is gone or libcurl does not use OpenSSL; the strings are
// OpenSSL's static names, the ALPN bytes belong to the SSL object (copy them at once).
static inline int ccurl_tls_session(CURL *handle, const char **version, const char **cipher,
                                    const unsigned char **alpn, unsigned int *alpn_length) {
    struct curl_tlssessioninfo *info = NULL;
    if (curl_easy_getinfo(handle, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || info == NULL) return 0;
    if (info->backend != CURLSSLBACKEND_OPENSSL || info->internals == NULL) return 0;
    SSL *ssl = (SSL *)info->internals;
    *version = SSL_get_version(ssl);
    const SSL_CIPHER *current = SSL_get_current_cipher(ssl);
    *cipher = current == NULL ? NULL : SSL_CIPHER_get_name(current);
    SSL_get0_alpn_selected(ssl, alpn, alpn_length);
    return 1;
}

#endif
