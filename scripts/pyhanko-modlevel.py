#!/usr/bin/env python3
"""What pyHanko says about the signatures of PDF files, difference analysis included, as JSON lines.

    scripts/pyhanko-modlevel.py FILE... [--trust ROOT.pem]... [--password P] [--no-strict-syntax]

For each FILE, one line on standard output:

    {"file": "a.pdf", "signatures": [{"field": "Sig1", "kind": "signature",
      "modificationLevel": "FORM_FILLING", "docmdpOk": true, "coverage": "ENTIRE_REVISION",
      "intact": true, "valid": true, "trusted": false, "bottomLine": false,
      "diffError": null, "error": null}, ...], "error": null}

Each signature (a /Sig signature or a /DocTimeStamp document timestamp, in the order of the file,
oldest first) is validated with pyHanko's API as `pyhanko sign validate` does by default:
`PdfFileReader` (strict syntax unless --no-strict-syntax), the empty user password tried on an
encrypted file, then `validate_pdf_signature` (`validate_pdf_timestamp` for a document timestamp)
with the default difference policy (`DEFAULT_DIFF_POLICY`), which compares each later revision with
the signed one. The keys:

  field              the signature field's name
  kind               "signature" or "timestamp"
  modificationLevel  `status.modification_level`: NONE (the signature covers the whole file),
                     LTA_UPDATES (DSS, document timestamps, /Info and XMP metadata),
                     FORM_FILLING (field values, their appearances, more signatures),
                     ANNOTATIONS (unused by pyHanko's default policy), OTHER (anything else, or a
                     difference analysis that failed); null when the analysis did not run
  docmdpOk           `status.docmdp_ok`: the modification level is within the DocMDP/FieldMDP
                     permissions in force (null: could not be determined)
  coverage           `status.coverage`: UNCLEAR, CONTIGUOUS_BLOCK_FROM_START, ENTIRE_REVISION or
                     ENTIRE_FILE
  intact, valid      the digest matches; the CMS signature verifies
  trusted            the signer's certificate chains to a --trust root (revocation not checked:
                     nothing is fetched from the network)
  bottomLine         `status.bottom_line`: pyHanko's overall verdict ("The signature is judged
                     VALID"), which needs trusted, so it is false for every signature without --trust
  diffError          the `SuspiciousModification` (or other error) that the difference analysis
                     ended with, as "ClassName: message"; null when it passed or did not run
  error              why this signature could not be validated at all (the other keys are then null)

"error" at the top is why the file could not be read (not a PDF, damaged beyond what pyHanko
reads, a password needed, ...); "signatures" is then empty. The script never stops on a bad
file: it reports it and goes on. It exits 0 when it could report on every file, 1 when a file
could not be read or a signature not validated, 2 on a usage error.

Needs only pyHanko (PyPI `pyhanko`).
"""

import argparse
import json
import logging
import sys


def error_text(exception):
    message = str(exception).strip().splitlines()
    return type(exception).__name__ + (": " + message[0] if message else "")


def enum_name(value):
    return None if value is None else value.name


def load_roots(paths):
    from pyhanko.keys import load_certs_from_pemder

    return list(load_certs_from_pemder(paths))


def validation_context(roots):
    from pyhanko_certvalidator import ValidationContext

    # Only the given roots (none: nothing is trusted), no revocation fetching.
    return ValidationContext(trust_roots=roots, allow_fetching=False, revocation_mode="soft-fail")


def open_reader(handle, password, strict):
    from pyhanko.pdf_utils import crypt
    from pyhanko.pdf_utils.reader import PdfFileReader

    reader = PdfFileReader(handle, strict=strict)
    handler = reader.security_handler
    if handler is None:
        return reader
    if not isinstance(handler, crypt.StandardSecurityHandler):
        raise ValueError("encrypted with a handler other than the standard (password) one")
    result = reader.decrypt("" if password is None else password)
    if result.status == crypt.AuthStatus.FAILED:
        if password is None:
            raise ValueError("encrypted: the empty user password does not open it (give --password)")
        raise ValueError("encrypted: the password does not open it")
    return reader


def signature_entry(embedded, roots):
    from pyhanko.sign.diff_analysis import SuspiciousModification
    from pyhanko.sign.validation import validate_pdf_signature, validate_pdf_timestamp

    entry = {
        "field": None,
        "kind": None,
        "modificationLevel": None,
        "docmdpOk": None,
        "coverage": None,
        "intact": None,
        "valid": None,
        "trusted": None,
        "bottomLine": None,
        "diffError": None,
        "error": None,
    }
    try:
        entry["field"] = embedded.field_name
        timestamp = embedded.sig_object_type == "/DocTimeStamp"
        entry["kind"] = "timestamp" if timestamp else "signature"
        context = validation_context(roots)
        if timestamp:
            status = validate_pdf_timestamp(embedded, validation_context=context)
        else:
            status = validate_pdf_signature(embedded, signer_validation_context=context)
    except Exception as exception:  # a signature pyHanko cannot validate: report it, go on
        entry["error"] = error_text(exception)
        return entry
    diff = status.diff_result
    if isinstance(diff, SuspiciousModification) or isinstance(diff, Exception):
        entry["diffError"] = error_text(diff)
    entry.update(
        modificationLevel=enum_name(status.modification_level),
        docmdpOk=status.docmdp_ok,
        coverage=enum_name(status.coverage),
        intact=bool(status.intact),
        valid=bool(status.valid),
        trusted=bool(status.trusted),
        bottomLine=bool(status.bottom_line),
    )
    return entry


def report(path, roots, password, strict):
    line = {"file": path, "signatures": [], "error": None}
    try:
        with open(path, "rb") as handle:
            reader = open_reader(handle, password, strict)
            for embedded in reader.embedded_signatures:
                line["signatures"].append(signature_entry(embedded, roots))
    except Exception as exception:  # an unreadable file (RecursionError and MemoryError included): go on
        line["error"] = error_text(exception)
    return line


def main(argv):
    parser = argparse.ArgumentParser(
        prog="pyhanko-modlevel.py",
        description="pyHanko's verdict on each signature of each FILE, difference analysis included, "
        "as one JSON line per file.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--trust", action="append", default=[], metavar="ROOT", help="trust root (PEM or DER)")
    parser.add_argument("--password", help="password of encrypted files (default: the empty one)")
    parser.add_argument("--no-strict-syntax", action="store_true", help="read damaged and hybrid files as pyHanko's "
                        "--no-strict-syntax does")
    arguments = parser.parse_args(argv)
    # pyHanko logs every problem it meets on the way; the JSON says what matters.
    logging.disable(logging.CRITICAL)
    try:
        roots = load_roots(arguments.trust)
    except Exception as exception:
        print(f"pyhanko-modlevel.py: --trust: {error_text(exception)}", file=sys.stderr)
        return 2
    failed = False
    for path in arguments.files:
        line = report(path, roots, arguments.password, not arguments.no_strict_syntax)
        failed |= line["error"] is not None or any(entry["error"] for entry in line["signatures"])
        print(json.dumps(line), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
