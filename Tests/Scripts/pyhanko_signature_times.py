"""pyHanko's reading of each signature's time-stamp and of the document's /DSS, for comparing
levels and time-stamps with `autograph verify` on documents signed by unknown PKIs.

Usage: pyhanko_signature_times.py FILE [PASSWORD]
Prints one line per signature (document time-stamps included):
`FIELD|KIND|TIME|INTACT|VALID` where KIND is `signature` or `doctimestamp`, TIME the signature
time-stamp's (or the document time-stamp's) genTime as ISO 8601 or `-`, INTACT and VALID pyHanko's
verdict on that token (`-` without one); then `DSS|CERTS|OCSPS|CRLS|VRIS` (`DSS|-` without one).
"""
import logging
import sys

from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature, validate_pdf_timestamp
from pyhanko.sign.validation.dss import DocumentSecurityStore
from pyhanko_certvalidator import ValidationContext


def main():
    logging.disable(logging.CRITICAL)
    reader = PdfFileReader(open(sys.argv[1], "rb"), strict=False)
    if reader.encrypted:
        reader.decrypt(sys.argv[2] if len(sys.argv) > 2 else "")
    context = ValidationContext(allow_fetching=False, revocation_mode="soft-fail")
    for signature in reader.embedded_signatures:
        name = signature.field_name
        try:
            if signature.sig_object_type == "/DocTimeStamp":
                status = validate_pdf_timestamp(signature, validation_context=context)
                print(f"{name}|doctimestamp|{status.timestamp.isoformat()}|{status.intact}|{status.valid}")
                continue
            status = validate_pdf_signature(signature, signer_validation_context=context, ts_validation_context=context)
            stamp = status.timestamp_validity
            if stamp is None:
                print(f"{name}|signature|-|-|-")
            else:
                print(f"{name}|signature|{stamp.timestamp.isoformat()}|{stamp.intact}|{stamp.valid}")
        except Exception as error:  # a signature pyHanko cannot read
            print(f"{name}|error|{type(error).__name__}|-|-")
    try:
        dss = DocumentSecurityStore.read_dss(reader)
        print(f"DSS|{len(list(dss.load_certs()))}|{len(dss.ocsps)}|{len(dss.crls)}|{len(dss.vri_entries)}")
    except Exception:
        print("DSS|-")


main()
