#ifndef IAPLENS_FIXED_KEY_ECDSA_H
#define IAPLENS_FIXED_KEY_ECDSA_H
// ES256 verification for a P-256 public key that signs many documents (Apple's leaf certificate signs every
// notification of months of an archive). ECDSA verification computes u1·G + u2·Q. OpenSSL's P-256 code keeps a
// table of multiples of the generator G, so u1·G is a few dozen additions, but it builds a small table for the
// key Q on every call and doubles 256 times. Here OpenSSL also builds the generator-sized table once for Q, by
// treating Q as the generator of a copy of the curve; each verification is then two table look-ups, one addition
// and a comparison. All arithmetic is OpenSSL's; this file only composes it (see Documentation/Performance.md,
// "A leaf key's table of multiples").
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A P-256 public key with OpenSSL's precomputed multiples of it (about 150 KB). Read-only once built, so one
/// key may be used by several threads at once.
typedef struct iaplens_fixed_key iaplens_fixed_key;

/// Builds the table for a public key given as an encoded P-256 point (65 bytes uncompressed, or 33 compressed).
/// Returns NULL when the bytes are not a point on P-256 or OpenSSL fails. Takes about 20 ms.
iaplens_fixed_key *iaplens_fixed_key_new(const unsigned char *point, size_t length);

void iaplens_fixed_key_free(iaplens_fixed_key *key);

/// Verifies an ES256 signature (raw r‖s, 32 bytes each, big-endian) over a SHA-256 digest.
/// Returns 1 when it verifies, 0 when it does not, -1 when OpenSSL failed (out of memory).
int iaplens_fixed_key_verify(
    const iaplens_fixed_key *key, const unsigned char digest[32], const unsigned char signature[64]);

/// The inverse of a big-endian value modulo the order n of P-256's group, as 32 big-endian bytes. Returns 1, or
/// 0 when the value is 0 or not below n (it has no inverse, or is not a signature's s).
int iaplens_p256_order_inverse(const unsigned char value[32], unsigned char inverse[32]);

#ifdef __cplusplus
}
#endif
#endif
