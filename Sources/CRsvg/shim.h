#ifndef TESSERA_CRSVG_SHIM_H
#define TESSERA_CRSVG_SHIM_H

// librsvg 2.52+ (rsvg_handle_render_document) and the cairo it draws with: pass previews rasterized to PNG.
#include <librsvg/rsvg.h>
#include <cairo.h>

#endif
