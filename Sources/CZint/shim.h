#ifndef TESSERA_CZINT_SHIM_H
#define TESSERA_CZINT_SHIM_H

// zint (libzint-dev) ships no pkg-config file; the module map links "zint" directly.
#include <zint.h>

#endif
