#ifndef IAPLENS_BASE64_VECTORS_H
#define IAPLENS_BASE64_VECTORS_H

#include <stddef.h>
#include <stdint.h>

/* Decodes the leading whole 32-character blocks of base64 text with AVX2, 32 characters into 24 bytes per step,
   for IAPFormats' Base64Decoding, which decodes whatever is left (the tail, padding, the last group's check) and
   everything on a CPU without AVX2.

   `alphabet` is 0 for base64url (RFC 4648 section 5: '-' and '_') and 1 for standard base64 (section 4: '+' and
   '/'). At most `blocks` blocks are read from `text` (32 bytes each) and written to `out` (24 bytes each, nothing
   past them). Returns the number of blocks decoded: 0 when the CPU has no AVX2. `*invalid` is set to 1 when one
   of those characters is outside the alphabet (padding included), and left alone otherwise. */
size_t iaplens_base64_decode_blocks(const uint8_t *text, size_t blocks, uint8_t *out, int alphabet, int *invalid);

#endif
