#ifndef IAPLENS_TEXT_VECTORS_H
#define IAPLENS_TEXT_VECTORS_H

#include <stddef.h>
#include <stdint.h>

/* Text kernels with 256-bit vectors for IAPFormats, used where the CPU has AVX2; each leaves what it does not cover
   to the portable Swift code that calls it, which also serves every other CPU. */

/* Decodes the leading whole 32-character blocks of base64 text, 32 characters into 24 bytes per step, for
   Base64Decoding, which decodes whatever is left (the tail, padding, the last group's check).

   `alphabet` is 0 for base64url (RFC 4648 section 5: '-' and '_') and 1 for standard base64 (section 4: '+' and
   '/'). At most `blocks` blocks are read from `text` (32 bytes each) and written to `out` (24 bytes each, nothing
   past them). Returns the number of blocks decoded: 0 when the CPU has no AVX2. `*invalid` is set to 1 when one
   of those characters is outside the alphabet (padding included), and left alone otherwise. */
size_t iaplens_base64_decode_blocks(const uint8_t *text, size_t blocks, uint8_t *out, int alphabet, int *invalid);

/* For PlainASCII: the first position at or after `start` of a quote, a backslash, a byte below 0x20 or one of
   0x80 and above, looking 32 bytes at a time from `start` and only as far as a whole 32 bytes still fit before
   `count`. When those hold none, the position after the last 32 looked at; `start` itself when the CPU has no
   AVX2. The caller looks at the rest. */
size_t iaplens_plain_ascii_end(const uint8_t *bytes, size_t count, size_t start);

#endif
