#include "text_vectors.h"

/* The fast path of every JSON string scan, 32 bytes a step (Documentation/Performance.md, "AVX2 text kernels"). A
   notification's strings are about 24 KB of base64 (the JWS inside the line, the JWS inside its payload), and
   the portable 16-byte loop of PlainASCII.swift ran at about 5 GB/s.

   A byte needs a look when it is a quote, a backslash, below 0x20 or 0x80 and above; as signed bytes the last two
   are one compare (0x80 and above are negative). */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

__attribute__((target("avx2")))
static size_t plain_end_avx2(const uint8_t *bytes, size_t count, size_t start) {
    const __m256i quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\'), space = _mm256_set1_epi8(0x20);
    size_t index = start;
    while (index + 32 <= count) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(bytes + index));
        __m256i special = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(v, quote), _mm256_cmpeq_epi8(v, backslash)), _mm256_cmpgt_epi8(space, v));
        unsigned mask = (unsigned)_mm256_movemask_epi8(special);
        if (mask != 0) return index + (size_t)__builtin_ctz(mask);
        index += 32;
    }
    return index;
}

size_t iaplens_plain_ascii_end(const uint8_t *bytes, size_t count, size_t start) {
    if (start >= count || !__builtin_cpu_supports("avx2")) return start;
    return plain_end_avx2(bytes, count, start);
}

#else

size_t iaplens_plain_ascii_end(const uint8_t *bytes, size_t count, size_t start) {
    (void)bytes; (void)count;
    return start;
}

#endif
