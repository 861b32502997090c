#include "fixed_key_ecdsa.h"

#include <stdint.h>

// A 256-bit number as four 64-bit limbs, least significant first.
typedef struct { uint64_t limb[4]; } u256;

// The order n of P-256's group (FIPS 186-4 D.1.2.3).
static const u256 p256_order = { {
    0xF3B9CAC2FC632551ULL, 0xBCE6FAADA7179E84ULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFF00000000ULL } };

static u256 from_big_endian(const unsigned char bytes[32]) {
    u256 value;
    for (int i = 0; i < 4; i++) {
        uint64_t limb = 0;
        for (int j = 0; j < 8; j++) limb = (limb << 8) | bytes[(3 - i) * 8 + j];
        value.limb[i] = limb;
    }
    return value;
}

static void to_big_endian(u256 value, unsigned char bytes[32]) {
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) bytes[(3 - i) * 8 + j] = (unsigned char)(value.limb[i] >> (56 - 8 * j));
}

static int is_zero(const u256 *a) { return (a->limb[0] | a->limb[1] | a->limb[2] | a->limb[3]) == 0; }
static int is_one(const u256 *a) { return a->limb[0] == 1 && (a->limb[1] | a->limb[2] | a->limb[3]) == 0; }

static int compare(const u256 *a, const u256 *b) {
    for (int i = 3; i >= 0; i--) {
        if (a->limb[i] != b->limb[i]) return a->limb[i] < b->limb[i] ? -1 : 1;
    }
    return 0;
}

// r = a + b; returns the carry out of the top limb.
static uint64_t add(u256 *r, const u256 *a, const u256 *b) {
    unsigned __int128 carry = 0;
    for (int i = 0; i < 4; i++) {
        carry += (unsigned __int128)a->limb[i] + b->limb[i];
        r->limb[i] = (uint64_t)carry;
        carry >>= 64;
    }
    return (uint64_t)carry;
}

// r = a - b; returns 1 when it borrowed (a < b).
static uint64_t subtract(u256 *r, const u256 *a, const u256 *b) {
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t ai = a->limb[i], bi = b->limb[i];
        uint64_t d = ai - bi - borrow;
        borrow = (ai < bi) | ((ai == bi) & borrow);
        r->limb[i] = d;
    }
    return borrow;
}

// a = a / 2^k for 0 < k < 64.
static void shift_right(u256 *a, unsigned k) {
    for (int i = 0; i < 3; i++) a->limb[i] = (a->limb[i] >> k) | (a->limb[i + 1] << (64 - k));
    a->limb[3] >>= k;
}

// -1/n mod 2^64, for dividing by powers of two modulo n.
static uint64_t negated_order_inverse_mod_2_64(void) {
    uint64_t n0 = p256_order.limb[0], inverse = n0;  // right to 3 bits, since n0 is odd
    for (int i = 0; i < 5; i++) inverse *= 2 - n0 * inverse;  // Newton: each step doubles the correct bits
    return 0 - inverse;
}

// x = x / 2^k mod n for x < n and 0 < k < 64: adding m·n with m < 2^k chosen so that the sum is divisible by
// 2^k keeps the value mod n, and (x + m·n) / 2^k < (2^k · n) / 2^k = n, so no reduction follows.
static void divide_by_power_of_two_mod_order(u256 *x, unsigned k, uint64_t negatedInverse) {
    uint64_t m = (x->limb[0] * negatedInverse) & ((1ULL << k) - 1);
    unsigned __int128 carry = 0;
    uint64_t sum[5];
    for (int i = 0; i < 4; i++) {
        carry += (unsigned __int128)m * p256_order.limb[i] + x->limb[i];
        sum[i] = (uint64_t)carry;
        carry >>= 64;
    }
    sum[4] = (uint64_t)carry;
    for (int i = 0; i < 4; i++) x->limb[i] = (sum[i] >> k) | (sum[i + 1] << (64 - k));
}

// x = x - y mod n, both below n.
static void subtract_mod_order(u256 *x, const u256 *y) {
    if (subtract(x, x, y)) add(x, x, &p256_order);
}

// Strips the factors of two from a non-zero a, dividing x by the same power of two mod n.
static void remove_twos(u256 *a, u256 *x, uint64_t negatedInverse) {
    while (a->limb[0] == 0) {  // 64 zero bits at once: astronomically rare for signature values, but possible
        a->limb[0] = a->limb[1], a->limb[1] = a->limb[2], a->limb[2] = a->limb[3], a->limb[3] = 0;
        divide_by_power_of_two_mod_order(x, 32, negatedInverse);
        divide_by_power_of_two_mod_order(x, 32, negatedInverse);
    }
    unsigned k = (unsigned)__builtin_ctzll(a->limb[0]);
    if (k > 0) {
        shift_right(a, k);
        divide_by_power_of_two_mod_order(x, k, negatedInverse);
    }
}

int iaplens_p256_order_inverse(const unsigned char value[32], unsigned char inverse[32]) {
    u256 u = from_big_endian(value);
    if (is_zero(&u) || compare(&u, &p256_order) >= 0) return 0;
    // Binary extended Euclid (Hankerson, Menezes, Vanstone, "Guide to Elliptic Curve Cryptography", algorithm
    // 2.22). Invariants: x1·value ≡ u and x2·value ≡ v (mod n). Not constant-time: it only ever sees public
    // signature values.
    u256 v = p256_order, x1 = { { 1, 0, 0, 0 } }, x2 = { { 0, 0, 0, 0 } };
    uint64_t negatedInverse = negated_order_inverse_mod_2_64();
    remove_twos(&u, &x1, negatedInverse);
    // u and v are odd here and at the top of every round; their difference is even and not zero until they meet.
    while (!is_one(&u) && !is_one(&v)) {
        if (compare(&u, &v) >= 0) {
            subtract(&u, &u, &v);
            subtract_mod_order(&x1, &x2);
            remove_twos(&u, &x1, negatedInverse);
        } else {
            subtract(&v, &v, &u);
            subtract_mod_order(&x2, &x1);
            remove_twos(&v, &x2, negatedInverse);
        }
    }
    to_big_endian(is_one(&u) ? x1 : x2, inverse);
    return 1;
}
