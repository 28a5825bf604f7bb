#!/usr/bin/env python3
"""Stores X.509 certificates on a PKCS#11 token, for autograph-bench's pkcs11 step (run by it once,
untimed, after `softhsm2-util --import` put the keys there: softhsm2-util imports keys only).

    pkcs11_store_certificate.py MODULE TOKEN_LABEL PIN_FILE LABEL:ID_HEX:CERT.pem [...]

Each certificate becomes a token object of class CKO_CERTIFICATE (CKC_X_509) with CKA_VALUE,
CKA_SUBJECT (required by PKCS#11), CKA_ISSUER, CKA_SERIAL_NUMBER, CKA_LABEL and CKA_ID, through
C_CreateObject in a read-write session: python-pkcs11, which pyHanko's pkcs11 extra installs.
Exit 0 when every certificate was stored; 1 (and the reason on standard error) otherwise.
"""

import sys


def main():
    if len(sys.argv) < 5:
        sys.stderr.write(__doc__)
        return 64
    import pkcs11
    from asn1crypto import pem
    from pkcs11 import Attribute
    from pkcs11.util.x509 import decode_x509_certificate

    module, token_label, pin_file = sys.argv[1:4]
    with open(pin_file, encoding="utf-8") as handle:
        pin = handle.read().strip()
    token = pkcs11.lib(module).get_token(token_label=token_label)
    with token.open(rw=True, user_pin=pin) as session:
        for entry in sys.argv[4:]:
            label, id_hex, path = entry.split(":", 2)
            with open(path, "rb") as handle:
                data = handle.read()
            if pem.detect(data):
                _kind, _headers, data = pem.unarmor(data)
            attributes = decode_x509_certificate(data)
            attributes[Attribute.TOKEN] = True
            attributes[Attribute.LABEL] = label
            attributes[Attribute.ID] = bytes.fromhex(id_hex)
            session.create_object(attributes)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as error:  # noqa: BLE001 - the bench reports the reason
        sys.stderr.write(f"{type(error).__name__}: {error}\n")
        sys.exit(1)
