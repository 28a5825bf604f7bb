#!/usr/bin/env python3
"""pyHanko's verdict on every signature of a PDF, with its difference analysis.

usage: pyhanko_verdict.py FILE.pdf ROOT.pem

Prints one JSON object: {"signatures": [...]} with, per signature (oldest first), the field
name, intact, valid, trusted, coverage, modification_level (NONE, LTA_UPDATES, FORM_FILLING,
ANNOTATIONS, OTHER), docmdp_ok, bottom_line and suspicious (the text of pyHanko's
SuspiciousModification, or null); or {"error": "..."} when pyHanko cannot read the file.
A signature pyHanko cannot validate at all is {"field": ..., "error": "..."}.
The file is read in pyHanko's strict mode (the default of `pyhanko sign validate`), which
refuses to validate signatures in hybrid-reference files. Nothing is fetched from the network.
"""
import json
import sys

from pyhanko.keys import load_certs_from_pemder
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.diff_analysis import SuspiciousModification
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko_certvalidator import ValidationContext


def verdict(signature, context):
    status = validate_pdf_signature(signature, context)
    diff = status.diff_result
    suspicious = str(diff) if isinstance(diff, SuspiciousModification) else None
    level = status.modification_level
    return {
        "field": signature.field_name,
        "intact": bool(status.intact),
        "valid": bool(status.valid),
        "trusted": bool(status.trusted),
        "coverage": status.coverage.name if status.coverage is not None else None,
        "modification_level": level.name if level is not None else None,
        "docmdp_ok": status.docmdp_ok,
        "bottom_line": bool(status.bottom_line),
        "suspicious": suspicious,
    }


def main():
    path, root = sys.argv[1], sys.argv[2]
    roots = list(load_certs_from_pemder([root]))
    results = []
    try:
        with open(path, "rb") as handle:
            reader = PdfFileReader(handle, strict=True)
            for signature in reader.embedded_regular_signatures:
                context = ValidationContext(trust_roots=roots, allow_fetching=False)
                try:
                    results.append(verdict(signature, context))
                except Exception as error:  # pyHanko refusing the signature is a verdict too
                    results.append({"field": signature.field_name, "error": f"{type(error).__name__}: {error}"})
    except Exception as error:
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}))
        return
    print(json.dumps({"signatures": results}))


if __name__ == "__main__":
    main()
