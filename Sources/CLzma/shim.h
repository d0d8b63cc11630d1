// liblzma 5.4 (Debian's liblzma-dev), the xz decoder; its stream decoder API (lzma_stream_decoder,
// lzma_code, lzma_end) is called from Swift as is, so this header only includes it.
// Only the Swift module `XZ` imports this module.

#ifndef STAGEBUILD_CLZMA_SHIM_H
#define STAGEBUILD_CLZMA_SHIM_H

#include <lzma.h>

#endif
