// OpenSSL's libcrypto from the system (Debian: libssl-dev), for hashes, HMAC, signature checks and
// the mock server's certificates (CryptoSupport). NIOSSL carries its own BoringSSL with prefixed
// names for TLS; this one is curl's, and building it is the system's job, not every build's.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/objects.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// Macros Swift cannot call.
static inline int apiexplorer_EVP_PKEY_CTX_set_rsa_padding(EVP_PKEY_CTX *ctx, int padding) {
    return EVP_PKEY_CTX_set_rsa_padding(ctx, padding);
}
static inline int apiexplorer_EVP_PKEY_CTX_set_rsa_pss_saltlen(EVP_PKEY_CTX *ctx, int length) {
    return EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, length);
}
static inline int apiexplorer_RSA_PKCS1_PADDING(void) { return RSA_PKCS1_PADDING; }
static inline int apiexplorer_RSA_PKCS1_PSS_PADDING(void) { return RSA_PKCS1_PSS_PADDING; }
static inline int apiexplorer_RSA_PSS_SALTLEN_DIGEST(void) { return RSA_PSS_SALTLEN_DIGEST; }
static inline int apiexplorer_RSA_PSS_SALTLEN_AUTO(void) { return RSA_PSS_SALTLEN_AUTO; }
static inline int apiexplorer_EVP_PKEY_KEYPAIR(void) { return EVP_PKEY_KEYPAIR; }
static inline int apiexplorer_EVP_PKEY_PUBLIC_KEY(void) { return EVP_PKEY_PUBLIC_KEY; }
static inline BIO *apiexplorer_BIO_new_mem(void) { return BIO_new(BIO_s_mem()); }
static inline long apiexplorer_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }
static inline int apiexplorer_MBSTRING_UTF8(void) { return MBSTRING_UTF8; }
