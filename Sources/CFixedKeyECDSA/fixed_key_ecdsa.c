// EC_GROUP_precompute_mult is deprecated in OpenSSL 3 (with the rest of the low-level EC API) but still part of
// it; nothing in the EVP API can keep precomputed multiples of a public key.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include "fixed_key_ecdsa.h"

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <stdlib.h>

struct iaplens_fixed_key {
    /// P-256 as OpenSSL knows it, with its built-in table for G.
    EC_GROUP *curve;
    /// A copy of P-256 whose generator is the key Q, with OpenSSL's table for it. Its points are points of
    /// `curve` (same field, same curve name), so they add with `curve`'s.
    EC_GROUP *keyCurve;
    /// The field's prime p.
    BIGNUM *prime;
};

void iaplens_fixed_key_free(iaplens_fixed_key *key) {
    if (key == NULL) return;
    EC_GROUP_free(key->curve);
    EC_GROUP_free(key->keyCurve);
    BN_free(key->prime);
    free(key);
}

iaplens_fixed_key *iaplens_fixed_key_new(const unsigned char *point, size_t length) {
    iaplens_fixed_key *key = calloc(1, sizeof *key);
    BN_CTX *ctx = BN_CTX_new();
    EC_POINT *q = NULL;
    int ok = 0;
    if (key == NULL || ctx == NULL) goto done;
    key->curve = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    if (key->curve == NULL) goto done;
    key->prime = BN_new();
    if (key->prime == NULL || EC_GROUP_get_curve(key->curve, key->prime, NULL, NULL, ctx) != 1) goto done;
    q = EC_POINT_new(key->curve);
    // oct2point refuses bytes that are not a point on the curve.
    if (q == NULL || EC_POINT_oct2point(key->curve, q, point, length, ctx) != 1) goto done;
    if (EC_POINT_is_at_infinity(key->curve, q)) goto done;
    key->keyCurve = EC_GROUP_dup(key->curve);
    if (key->keyCurve == NULL) goto done;
    // P-256 has prime order n and cofactor 1, so any point but infinity generates the whole group.
    if (EC_GROUP_set_generator(key->keyCurve, q, EC_GROUP_get0_order(key->curve),
                               EC_GROUP_get0_cofactor(key->curve)) != 1) goto done;
    if (EC_GROUP_precompute_mult(key->keyCurve, ctx) != 1) goto done;
    if (EC_GROUP_have_precompute_mult(key->keyCurve) != 1) goto done;
    ok = 1;
done:
    EC_POINT_free(q);
    BN_CTX_free(ctx);
    if (!ok) {
        ERR_clear_error();
        iaplens_fixed_key_free(key);
        return NULL;
    }
    return key;
}

int iaplens_fixed_key_verify(
    const iaplens_fixed_key *key, const unsigned char digest[32], const unsigned char signature[64]) {
    int result = -1;
    BN_CTX *ctx = BN_CTX_new();
    EC_POINT *uG = NULL, *uQ = NULL;
    if (ctx == NULL) return -1;
    BN_CTX_start(ctx);
    BIGNUM *r = BN_CTX_get(ctx), *e = BN_CTX_get(ctx), *w = BN_CTX_get(ctx);
    BIGNUM *u1 = BN_CTX_get(ctx), *u2 = BN_CTX_get(ctx), *x = BN_CTX_get(ctx);
    BIGNUM *z = BN_CTX_get(ctx), *candidate = BN_CTX_get(ctx);
    if (candidate == NULL) goto done;
    const BIGNUM *order = EC_GROUP_get0_order(key->curve);
    unsigned char inverse[32];
    if (BN_bin2bn(signature, 32, r) == NULL) goto done;
    // FIPS 186-4 §6.4.2 step 1: r and s in [1, n-1] (the inverse refuses an s outside).
    if (BN_is_zero(r) || BN_cmp(r, order) >= 0 || !iaplens_p256_order_inverse(signature + 32, inverse)) {
        result = 0;
        goto done;
    }
    // Steps 2-5: e is the whole digest (SHA-256 and n are both 256 bits); w = s^-1, u1 = e·w, u2 = r·w mod n.
    if (BN_bin2bn(digest, 32, e) == NULL || BN_bin2bn(inverse, 32, w) == NULL) goto done;
    if (BN_mod_mul(u1, e, w, order, ctx) != 1 || BN_mod_mul(u2, r, w, order, ctx) != 1) goto done;
    // Step 6: R = u1·G + u2·Q, each from its own table.
    uG = EC_POINT_new(key->curve);
    uQ = EC_POINT_new(key->curve);
    if (uG == NULL || uQ == NULL) goto done;
    if (EC_POINT_mul(key->curve, uG, u1, NULL, NULL, ctx) != 1) goto done;
    if (EC_POINT_mul(key->keyCurve, uQ, u2, NULL, NULL, ctx) != 1) goto done;
    if (EC_POINT_add(key->curve, uG, uG, uQ, ctx) != 1) goto done;
    if (EC_POINT_is_at_infinity(key->curve, uG)) {
        result = 0;
        goto done;
    }
    // Steps 7-8: valid when R's x coordinate, reduced mod n, is r: x is r or, when r + n < p, r + n. R is kept
    // in Jacobian coordinates (X, Y, Z), x = X / Z^2, so the test is X = candidate·Z^2 (mod p), which spares the
    // field inversion of converting R to affine coordinates.
    // Both sides are compared reduced mod p.
    if (EC_POINT_get_Jprojective_coordinates_GFp(key->curve, uG, x, NULL, z, ctx) != 1) goto done;
    if (BN_nnmod(x, x, key->prime, ctx) != 1) goto done;
    if (BN_mod_sqr(z, z, key->prime, ctx) != 1) goto done;
    if (BN_mod_mul(candidate, r, z, key->prime, ctx) != 1) goto done;
    if (BN_cmp(candidate, x) == 0) {
        result = 1;
        goto done;
    }
    if (BN_add(candidate, r, order) != 1) goto done;
    if (BN_cmp(candidate, key->prime) >= 0) {
        result = 0;
        goto done;
    }
    if (BN_mod_mul(candidate, candidate, z, key->prime, ctx) != 1) goto done;
    result = BN_cmp(candidate, x) == 0 ? 1 : 0;
done:
    EC_POINT_free(uG);
    EC_POINT_free(uQ);
    BN_CTX_end(ctx);
    BN_CTX_free(ctx);
    if (result < 0) ERR_clear_error();
    return result;
}
