#ifndef TESSERA_CQRENCODE_SHIM_H
#define TESSERA_CQRENCODE_SHIM_H

#include <qrencode.h>

#endif
