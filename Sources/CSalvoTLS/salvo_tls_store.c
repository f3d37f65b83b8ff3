#include "salvo_tls_store.h"

#include <curl/curl.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

void *salvo_tls_store_create(const char *file, const char *directory) {
    if (file == NULL && directory == NULL) {
        return NULL;
    }
    X509_STORE *store = X509_STORE_new();
    if (store == NULL) {
        return NULL;
    }
    // A file that cannot be read must fail here, as libcurl's own loading would fail the
    // transfer (CURLE_SSL_CACERT_BADFILE): the caller then leaves the loading to libcurl.
    if (file != NULL && X509_STORE_load_file(store, file) != 1) {
        X509_STORE_free(store);
        return NULL;
    }
    // A directory is looked up lazily, by subject hash, when a chain needs an issuer the
    // file did not hold: what libcurl does with CURLOPT_CAPATH. A missing directory is not
    // an error there either.
    if (directory != NULL) {
        X509_LOOKUP *lookup = X509_STORE_add_lookup(store, X509_LOOKUP_hash_dir());
        if (lookup != NULL) {
            X509_LOOKUP_add_dir(lookup, directory, X509_FILETYPE_PEM);
        }
    }
    // What libcurl sets on the store it would have made: the trusted certificates are
    // tried first, and any certificate in the store may end a chain (an intermediate
    // given as an anchor is enough).
    X509_STORE_set_flags(store, X509_V_FLAG_TRUSTED_FIRST | X509_V_FLAG_PARTIAL_CHAIN);
    return store;
}

void salvo_tls_store_retain(void *store) {
    X509_STORE_up_ref((X509_STORE *)store);
}

void salvo_tls_store_release(void *store) {
    X509_STORE_free((X509_STORE *)store);
}

// libcurl calls this for each new connection, after it has set up the SSL_CTX (without CA
// locations, since the handle has none) and before the handshake.
static CURLcode salvo_tls_install(CURL *easy, void *ssl_ctx, void *store) {
    (void)easy;
    // set1: the SSL_CTX takes its own reference.
    SSL_CTX_set1_cert_store((SSL_CTX *)ssl_ctx, (X509_STORE *)store);
    return CURLE_OK;
}

int salvo_tls_use_store(void *easy, void *store) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_CAINFO, (char *)NULL);
    if (code == CURLE_OK) code = curl_easy_setopt(easy, CURLOPT_CAPATH, (char *)NULL);
    if (code == CURLE_OK) code = curl_easy_setopt(easy, CURLOPT_SSL_CTX_FUNCTION, salvo_tls_install);
    if (code == CURLE_OK) code = curl_easy_setopt(easy, CURLOPT_SSL_CTX_DATA, store);
#if LIBCURL_VERSION_NUM >= 0x075700
    // libcurl's own CA cache (7.87 and later), with no file or directory set, would keep the
    // first connection's store for every later one and so outlive a rebuilt store here.
    if (code == CURLE_OK) code = curl_easy_setopt(easy, CURLOPT_CA_CACHE_TIMEOUT, 0L);
#endif
    return (int)code;
}
