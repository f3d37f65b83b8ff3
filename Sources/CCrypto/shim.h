#ifndef SALVO_CCRYPTO_SHIM_H
#define SALVO_CCRYPTO_SHIM_H

// OpenSSL's libcrypto, for the bulk downloader's checksums (EVP digests). libcurl links the
// same library for TLS, so the process already has it.
#include <openssl/evp.h>

#endif
