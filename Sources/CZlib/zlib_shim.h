#ifndef IAPLENS_ZLIB_SHIM_H
#define IAPLENS_ZLIB_SHIM_H
#include <zlib.h>
// inflateInit2 is a macro; wrap it so Swift can call it.
static inline int iaplens_inflate_init_gzip(z_streamp strm) { return inflateInit2(strm, 16 + MAX_WBITS); }
static inline int iaplens_deflate_init_gzip(z_streamp strm, int level) {
    return deflateInit2(strm, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}
#endif
