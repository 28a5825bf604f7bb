// The PKCS#11 (Cryptoki) interface as p11-kit ships it (Debian libp11-kit-dev): its pkcs11.h is
// free software with unlimited permission to copy (see its header), needs no macros defined by the
// includer, and declares only types and constants. Nothing is linked: a module is loaded with
// dlopen at run time (Sources/PKCS11/PKCS11Module.swift).
#include <p11-kit-1/p11-kit/pkcs11.h>
