#ifndef TESSERA_CLIBZ_SHIM_H
#define TESSERA_CLIBZ_SHIM_H

#include <zlib.h>

// deflateInit2 is a function-like macro (it passes zlib's version and the stream's size), which Swift cannot call.
static inline int tessera_deflateInit2(z_streamp stream, int level, int windowBits, int memLevel, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, strategy);
}

// inflateInit is a macro too.
static inline int tessera_inflateInit(z_streamp stream) {
    return inflateInit(stream);
}

#endif
