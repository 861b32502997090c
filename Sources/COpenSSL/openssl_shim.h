#ifndef IAPLENS_OPENSSL_SHIM_H
#define IAPLENS_OPENSSL_SHIM_H
// OpenSSL 3 headers used by iaplens. Deprecated low-level APIs are used on purpose, and their warnings
// silenced here: EC_KEY and ECDSA_do_sign_ex by IAPTestSigning (deterministic test signatures), and
// SHA256_Init/Update/Final by IAPFormats' MemoryDigest, because OpenSSL 3's one-shot SHA256() fetches
// the algorithm from the provider registry on every call. Verification itself uses X509 and EVP APIs.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/rand.h>

// Macros and variadic helpers Swift cannot call directly.
static inline int iaplens_x509_up_ref(X509 *cert) { return X509_up_ref(cert); }
static inline long iaplens_bio_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

// STACK_OF(X509) helpers: the sk_X509_* names are macros in OpenSSL 3.
static inline STACK_OF(X509) *iaplens_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int iaplens_sk_X509_push(STACK_OF(X509) *stack, X509 *cert) { return sk_X509_push(stack, cert); }
static inline int iaplens_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
static inline X509 *iaplens_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }
static inline void iaplens_sk_X509_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }
#endif
