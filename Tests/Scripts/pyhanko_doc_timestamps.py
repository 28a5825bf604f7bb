# pyHanko's verdict on each document time-stamp of a PDF (`pyhanko sign validate` lists signatures
# only): `FIELD:intact:valid:trusted:TIME`, one line each. Usage: pyhanko_doc_timestamps.py FILE ROOT.pem
import sys
from asn1crypto import pem, x509
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_timestamp
from pyhanko_certvalidator import ValidationContext

_, _, der = pem.unarmor(open(sys.argv[2], "rb").read())
root = x509.Certificate.load(der)
reader = PdfFileReader(open(sys.argv[1], "rb"))
for signature in reader.embedded_timestamp_signatures:
    status = validate_pdf_timestamp(
        signature, validation_context=ValidationContext(trust_roots=[root], allow_fetching=True))
    print(f"{signature.field_name}:{status.intact}:{status.valid}:{status.trusted}:{status.timestamp.isoformat()}")
