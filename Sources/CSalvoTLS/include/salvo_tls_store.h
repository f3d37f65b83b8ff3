#ifndef SALVO_TLS_STORE_H
#define SALVO_TLS_STORE_H

// One parsed set of trusted CA certificates, shared by every TLS connection of an
// event loop that verifies against it.
//
// libcurl 7.88 with OpenSSL 3.0 parses the whole CA bundle (about 140 PEM
// certificates) into a new X509_STORE for every connection: ~20 ms of CPU each.
// Here the bundle is parsed once, and libcurl's CURLOPT_SSL_CTX_FUNCTION hands
// the finished store to each new connection's SSL_CTX by reference, with
// libcurl's own loading switched off (CURLOPT_CAINFO and CURLOPT_CAPATH unset).
//
// A store is immutable once built and reference counted by OpenSSL, so
// connections that still use it keep it alive after its owner releases it.

/// Parses `file` (a PEM bundle; NULL for none) and adds `directory` (OpenSSL's
/// hashed-directory lookup; NULL for none) into a new store. Returns NULL when
/// `file` cannot be read or holds no certificate, or when nothing was asked for.
void *salvo_tls_store_create(const char *file, const char *directory);

/// Takes one more reference.
void salvo_tls_store_retain(void *store);

/// Drops one reference.
void salvo_tls_store_release(void *store);

/// Makes every connection `easy` sets up from now on verify against `store`
/// (CURLOPT_SSL_CTX_FUNCTION and CURLOPT_SSL_CTX_DATA), and stops libcurl from
/// loading its own CA file and directory for it. Returns a CURLcode (0 on success).
/// A curl_easy_reset undoes all of it.
int salvo_tls_use_store(void *easy, void *store);

#endif
