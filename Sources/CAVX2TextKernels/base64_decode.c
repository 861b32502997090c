#include "text_vectors.h"

/* Base64 decoding with 256-bit vectors (Documentation/Performance.md, "AVX2 text kernels"). Every JWS segment and x5c entry
   goes through Base64Decoding, about 9 KB of text per notification; its table-driven loop ran at about 2.4 GB/s
   and was the largest item of a notification's decoding.

   Each character is classified by range compares (A-Z, a-z, 0-9 and the alphabet's two symbols), each class adding
   its own offset to reach the 6-bit value; a character in no class marks the text invalid. Two multiply-adds then
   pack four 6-bit values into 24 bits, and one byte shuffle and one lane permute put the 24 bytes of a block in
   order. No table is read, so the two alphabets differ only in two compares. */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

__attribute__((target("avx2")))
static size_t decode_avx2(const uint8_t *text, size_t blocks, uint8_t *out, int alphabet, int *invalid) {
    const __m256i symbol62 = _mm256_set1_epi8(alphabet == 0 ? '-' : '+');
    const __m256i symbol63 = _mm256_set1_epi8(alphabet == 0 ? '_' : '/');
    const __m256i offset62 = _mm256_set1_epi8((char)(62 - (alphabet == 0 ? '-' : '+')));
    const __m256i offset63 = _mm256_set1_epi8((char)(63 - (alphabet == 0 ? '_' : '/')));
    const __m256i belowUpper = _mm256_set1_epi8('A' - 1), aboveUpper = _mm256_set1_epi8('Z' + 1);
    const __m256i belowLower = _mm256_set1_epi8('a' - 1), aboveLower = _mm256_set1_epi8('z' + 1);
    const __m256i belowDigit = _mm256_set1_epi8('0' - 1), aboveDigit = _mm256_set1_epi8('9' + 1);
    const __m256i offsetUpper = _mm256_set1_epi8(-'A');
    const __m256i offsetLower = _mm256_set1_epi8(26 - 'a');
    const __m256i offsetDigit = _mm256_set1_epi8(52 - '0');
    /* v0 * 64 + v1 and v2 * 64 + v3 in 16 bits, then those two * 4096 + in 32 bits: v0 v1 v2 v3 as 24 bits. */
    const __m256i pairs = _mm256_set1_epi32(0x01400140);
    const __m256i quads = _mm256_set1_epi32(0x00011000);
    /* The 24 bits sit little-endian in each 32-bit lane; the output is big-endian, three bytes per lane. */
    const __m256i order = _mm256_setr_epi8(
        2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
        2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    const __m256i gather = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
    __m256i allValid = _mm256_set1_epi8(-1);
    for (size_t block = 0; block < blocks; block++) {
        /* Signed compares: a byte of 0x80 or more is negative, so it falls in no class and is invalid. */
        __m256i v = _mm256_loadu_si256((const __m256i *)(text + 32 * block));
        __m256i upper = _mm256_and_si256(_mm256_cmpgt_epi8(v, belowUpper), _mm256_cmpgt_epi8(aboveUpper, v));
        __m256i lower = _mm256_and_si256(_mm256_cmpgt_epi8(v, belowLower), _mm256_cmpgt_epi8(aboveLower, v));
        __m256i digit = _mm256_and_si256(_mm256_cmpgt_epi8(v, belowDigit), _mm256_cmpgt_epi8(aboveDigit, v));
        __m256i is62 = _mm256_cmpeq_epi8(v, symbol62);
        __m256i is63 = _mm256_cmpeq_epi8(v, symbol63);
        __m256i offset = _mm256_or_si256(
            _mm256_or_si256(_mm256_and_si256(upper, offsetUpper), _mm256_and_si256(lower, offsetLower)),
            _mm256_or_si256(_mm256_and_si256(digit, offsetDigit),
                            _mm256_or_si256(_mm256_and_si256(is62, offset62), _mm256_and_si256(is63, offset63))));
        __m256i valid = _mm256_or_si256(_mm256_or_si256(upper, lower), _mm256_or_si256(digit, _mm256_or_si256(is62, is63)));
        allValid = _mm256_and_si256(allValid, valid);
        __m256i values = _mm256_add_epi8(v, offset);
        __m256i packed = _mm256_madd_epi16(_mm256_maddubs_epi16(values, pairs), quads);
        __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(packed, order), gather);
        _mm_storeu_si128((__m128i *)(out + 24 * block), _mm256_castsi256_si128(bytes));
        _mm_storel_epi64((__m128i *)(out + 24 * block + 16), _mm256_extracti128_si256(bytes, 1));
    }
    if (_mm256_movemask_epi8(allValid) != -1) *invalid = 1;
    return blocks;
}

size_t iaplens_base64_decode_blocks(const uint8_t *text, size_t blocks, uint8_t *out, int alphabet, int *invalid) {
    /* Resolved once; GCC and Clang cache the CPU's features after the first query. */
    if (blocks == 0 || !__builtin_cpu_supports("avx2")) return 0;
    return decode_avx2(text, blocks, out, alphabet, invalid);
}

#else

size_t iaplens_base64_decode_blocks(const uint8_t *text, size_t blocks, uint8_t *out, int alphabet, int *invalid) {
    (void)text; (void)blocks; (void)out; (void)alphabet; (void)invalid;
    return 0;
}

#endif
