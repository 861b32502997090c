#include "fixed_key_ecdsa.h"

#include <stdint.h>
#include <string.h>

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

// a = (top·2^256 + a) / 2 for even a.
static void halve(u256 *a, uint64_t top) {
    for (int i = 0; i < 3; i++) a->limb[i] = (a->limb[i] >> 1) | (a->limb[i + 1] << 63);
    a->limb[3] = (a->limb[3] >> 1) | (top << 63);
}

// x / 2 mod n: x + n is even when x is odd, since n is odd.
static void halve_mod_order(u256 *x) {
    uint64_t top = 0;
    if (x->limb[0] & 1) top = add(x, x, &p256_order);
    halve(x, top);
}

// x = x - y mod n, both below n.
static void subtract_mod_order(u256 *x, const u256 *y) {
    if (subtract(x, x, y)) add(x, x, &p256_order);
}

int iaplens_p256_order_inverse(const unsigned char value[32], unsigned char inverse[32]) {
    u256 u = from_big_endian(value);
    if (is_zero(&u) || compare(&u, &p256_order) >= 0) return 0;
    // Binary extended Euclid (Hankerson, Menezes, Vanstone, "Guide to Elliptic Curve Cryptography", algorithm
    // 2.22). Invariants: x1·value ≡ u and x2·value ≡ v (mod n). Not constant-time: it only ever sees public
    // signature values.
    u256 v = p256_order, x1 = { { 1, 0, 0, 0 } }, x2 = { { 0, 0, 0, 0 } };
    while (!is_one(&u) && !is_one(&v)) {
        while (!(u.limb[0] & 1)) {
            halve(&u, 0);
            halve_mod_order(&x1);
        }
        while (!(v.limb[0] & 1)) {
            halve(&v, 0);
            halve_mod_order(&x2);
        }
        if (compare(&u, &v) >= 0) {
            subtract(&u, &u, &v);
            subtract_mod_order(&x1, &x2);
        } else {
            subtract(&v, &v, &u);
            subtract_mod_order(&x2, &x1);
        }
    }
    to_big_endian(is_one(&u) ? x1 : x2, inverse);
    return 1;
}
