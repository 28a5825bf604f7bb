#!/usr/bin/env python3
"""The pyHanko side of autograph-bench's sign step (run by it as a child process).

    pyhanko_sign.py TASK_LIST ROUNDS P12 PASSWORD FIELD X1,Y1,X2,Y2
    pyhanko_sign.py --probe TASK_LIST

Signing: the PKCS#12 key is loaded once (SimpleSigner.load_pkcs12). Then for every task of the list
(lines "INDEX \\t HAS_PASSWORD \\t PASSWORD \\t PATH"), once per round, in this one process: open the
file, make an IncrementalPdfFileWriter on it, and sign_pdf with a new visible field FIELD on the
first page at the rectangle, PAdES (/SubFilter ETSI.CAdES.detached, as Autograph writes), SHA-256,
into memory (the BytesIO sign_pdf returns). Only that work is timed, not the interpreter start, the
imports or loading the key. The output protocol is the one in CorpusWorker.swift; for this step
OBJECTS is 1 (documents signed) and DECODED_BYTES the size of the signed document.

--probe: which files pyHanko can sign at all, before anything is timed. One line per task:
"OK \\t INDEX" or "NO \\t INDEX \\t REASON" (does not open strictly, encrypted, already signed, no page).
"""

import io
import logging
import sys
import time


def read_tasks(path):
    tasks = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if line:
                index, has_password, password, file_path = line.split("\t", 3)
                tasks.append((int(index), file_path, password if has_password == "1" else None))
    return tasks


def emit(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def field(text):
    return " ".join(str(text).split())


def probe(tasks):
    from pyhanko.pdf_utils.reader import PdfFileReader

    for index, path, _password in tasks:
        try:
            with open(path, "rb") as handle:
                reader = PdfFileReader(handle)
                if reader.encrypted:
                    reason = "encrypted"
                elif reader.embedded_signatures:
                    reason = "already signed"
                elif int(reader.root["/Pages"]["/Count"]) < 1:
                    reason = "no page"
                else:
                    reason = None
        except Exception as error:  # noqa: BLE001 - any failure leaves the file out
            reason = f"{type(error).__name__}: {error}"
        emit(f"OK\t{index}" if reason is None else f"NO\t{index}\t{field(reason)}")
    return 0


def main():
    # pyHanko logs each lenient parse ("Superfluous whitespace …"); the report does not need them.
    logging.getLogger("pyhanko").setLevel(logging.ERROR)
    if len(sys.argv) == 3 and sys.argv[1] == "--probe":
        return probe(read_tasks(sys.argv[2]))
    if len(sys.argv) != 7:
        sys.stderr.write(__doc__)
        return 64
    tasks = read_tasks(sys.argv[1])
    rounds = int(sys.argv[2])
    p12, password, field_name = sys.argv[3], sys.argv[4], sys.argv[5]
    box = tuple(int(float(value)) for value in sys.argv[6].split(","))

    from importlib.metadata import version

    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import fields, signers

    signer = signers.SimpleSigner.load_pkcs12(p12, passphrase=password.encode("utf-8"))
    if signer is None:
        sys.stderr.write(f"pyhanko_sign.py: cannot load {p12}\n")
        return 1
    key = p12.rsplit("/", 1)[-1]
    emit(f"V\tpyHanko {version('pyhanko')} (in process, {key})")
    clock = time.perf_counter

    def sign(path):
        meta = signers.PdfSignatureMetadata(field_name=field_name, subfilter=fields.SigSeedSubFilter.PADES)
        spec = fields.SigFieldSpec(sig_field_name=field_name, box=box, on_page=0)
        with open(path, "rb") as handle:
            writer = IncrementalPdfFileWriter(handle)
            output = signers.sign_pdf(writer, meta, signer=signer, new_field_spec=spec, output=io.BytesIO())
        return len(output.getbuffer())

    for round_index in range(rounds):
        total = 0.0
        for index, path, _password in tasks:
            emit(f"S\t{round_index}\t{index}")
            start = clock()
            try:
                written = sign(path)
            except Exception as error:  # noqa: BLE001 - any failure skips the file on both sides
                emit(f"F\t{round_index}\t{index}\t{clock() - start}\t{field(type(error).__name__ + ': ' + str(error))}")
                continue
            seconds = clock() - start
            total += seconds
            emit(f"R\t{round_index}\t{index}\t{seconds}\t1\t0\t{written}\t0")
        sys.stderr.write(f"  pyHanko: round {round_index + 1}/{rounds} done, {total:.3f} s over {len(tasks)} files\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
