#ifndef SALVO_CCRYPTO_SHIM_H
#define SALVO_CCRYPTO_SHIM_H

// OpenSSL's libcrypto, for the bulk downloader's checksums (EVP digests) and for reading the
// certificates and public keys given to server trust evaluators (X.509 DER). libcurl links the
// same library for TLS, so the process already has it.
#include <openssl/evp.h>
#include <openssl/x509.h>

#endif
