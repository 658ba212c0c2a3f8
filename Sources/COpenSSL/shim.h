#ifndef TESSERA_COPENSSL_SHIM_H
#define TESSERA_COPENSSL_SHIM_H

#include <string.h>
#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
// pem.h first: cms.h declares PEM_read_bio_CMS only when pem.h has been read (without it, the call is an implicit
// declaration returning int, and the pointer it returns is cut to 32 bits).
#include <openssl/pem.h>
#include <openssl/cms.h>
#include <openssl/conf.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pkcs12.h>
#include <openssl/engine.h>
#include <openssl/ui.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/ec.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>

// OpenSSL 3 exposes these as function-like macros, which Swift cannot call.

static inline void tessera_OPENSSL_free(void *ptr) { OPENSSL_free(ptr); }

static inline long tessera_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

static inline STACK_OF(X509) *tessera_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int tessera_sk_X509_push(STACK_OF(X509) *stack, X509 *cert) { return sk_X509_push(stack, cert); }
static inline int tessera_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
static inline X509 *tessera_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }
static inline void tessera_sk_X509_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }
static inline void tessera_sk_X509_pop_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }

static inline int tessera_sk_CMS_SignerInfo_num(STACK_OF(CMS_SignerInfo) *stack) { return sk_CMS_SignerInfo_num(stack); }
static inline CMS_SignerInfo *tessera_sk_CMS_SignerInfo_value(STACK_OF(CMS_SignerInfo) *stack, int index) {
    return sk_CMS_SignerInfo_value(stack, index);
}

static inline CMS_ContentInfo *tessera_PEM_read_bio_CMS(BIO *bio) { return PEM_read_bio_CMS(bio, NULL, NULL, NULL); }
static inline int tessera_BIO_reset(BIO *bio) { return (int)BIO_reset(bio); }

static inline EVP_PKEY *tessera_EVP_RSA_gen(unsigned int bits) { return EVP_RSA_gen(bits); }
static inline EVP_PKEY *tessera_EVP_EC_gen(const char *curve) { return EVP_EC_gen(curve); }

/// Passphrase callback for PEM/DER decoders: `userdata` is a NUL-terminated password or NULL.
/// Returning -1 without a password makes OpenSSL fail instead of prompting on the terminal.
static inline int tessera_password_callback(char *buf, int size, int rwflag, void *userdata) {
    (void)rwflag;
    if (userdata == NULL) return -1;
    size_t length = strlen((const char *)userdata);
    if (length > (size_t)size) length = (size_t)size;
    memcpy(buf, userdata, length);
    return (int)length;
}
static inline pem_password_cb *tessera_password_callback_pointer(void) { return tessera_password_callback; }

// Keys in a PKCS#11 module through libp11's `pkcs11` engine (libengine-pkcs11-openssl). The ENGINE API is deprecated
// in OpenSSL 3 and still the one PKCS#11 binding Debian bookworm ships; the calls are kept here so Swift sees no
// deprecated declaration.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/// The `pkcs11` engine loaded from OpenSSL's engines folder and initialised with `module_path`, or NULL.
static inline ENGINE *tessera_pkcs11_engine(const char *module_path) {
    ENGINE *engine = ENGINE_by_id("pkcs11");
    if (engine == NULL) return NULL;
    // Without QUIET the engine prints its own lines on standard error ("No matching initialized token was found for
    // private key", ...) before the caller's message, which says the same from OpenSSL's error queue. Optional: an
    // engine without the command works as before.
    ENGINE_ctrl_cmd_string(engine, "QUIET", NULL, 1);
    if (ENGINE_ctrl_cmd_string(engine, "MODULE_PATH", module_path, 0) != 1 || ENGINE_init(engine) != 1) {
        ENGINE_free(engine);
        return NULL;
    }
    return engine;
}

/// Sets the PIN the engine logs in with.
static inline int tessera_pkcs11_set_pin(ENGINE *engine, const char *pin) {
    return ENGINE_ctrl_cmd_string(engine, "PIN", pin, 0);
}

/// The private key named by a PKCS#11 URI, its private operations done by the module; never prompts.
static inline EVP_PKEY *tessera_pkcs11_load_private_key(ENGINE *engine, const char *uri) {
    return ENGINE_load_private_key(engine, uri, UI_null(), NULL);
}

#pragma GCC diagnostic pop

#endif
