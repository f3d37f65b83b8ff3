#ifndef SALVO_CZLIB_SHIM_H
#define SALVO_CZLIB_SHIM_H

// zlib for DeflateRequestCompressor. zlib's API is not variadic, so it needs no shims:
// this header only brings it into Swift. No logic lives here.

#include <zlib.h>

#endif
