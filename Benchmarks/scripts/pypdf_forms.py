#!/usr/bin/env python3
"""The pypdf side of autograph-bench's forms benchmark (run by it as a child process).

    pypdf_forms.py TASK_LIST ROUNDS

For every task (lines "INDEX \\t HAS_PASSWORD \\t PASSWORD \\t PATH"), once per round, in this one
process: open the file with pypdf, fill every editable text field (terminal /FT /Tx without the
read-only flag) with "Field N" cut to /MaxLen, as Autograph does, letting pypdf make the
appearance streams (update_page_form_field_values), and write the whole document to memory.

Only that work is timed. The output protocol is the one in CorpusWorker.swift; for this step
OBJECTS is the number of fields filled and DECODED_BYTES the number of bytes written.
"""

import io
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


def fill(pypdf, path, password):
    reader = pypdf.PdfReader(path)
    if reader.is_encrypted:
        reader.decrypt(password or "")
    fields = reader.get_fields() or {}
    names = list(fields)
    values = {}
    for index, name in enumerate(names):
        field = fields[name]
        if any(other.startswith(name + ".") for other in names):
            continue
        flags = int(field.get("/Ff", 0) or 0)
        if field.get("/FT") != "/Tx" or flags & 1:
            continue
        text = f"Field {index}"
        max_length = field.get("/MaxLen")
        if max_length:
            text = text[-int(max_length):]
        values[name] = text
    if not values:
        raise ValueError("no text fields")
    writer = pypdf.PdfWriter(clone_from=reader)
    for page in writer.pages:
        if "/Annots" in page:
            writer.update_page_form_field_values(page, values, auto_regenerate=False)
    output = io.BytesIO()
    writer.write(output)
    return len(values), output.tell()


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 64
    tasks = read_tasks(sys.argv[1])
    rounds = int(sys.argv[2])
    import pypdf

    emit(f"V\tpypdf {pypdf.__version__} (in process)")
    clock = time.perf_counter
    for round_index in range(rounds):
        for index, path, password in tasks:
            emit(f"S\t{round_index}\t{index}")
            start = clock()
            try:
                filled, written = fill(pypdf, path, password)
            except Exception as error:  # noqa: BLE001 - any failure skips the file on both sides
                emit(f"F\t{round_index}\t{index}\t{clock() - start}\t{' '.join(str(error).split())}")
                continue
            emit(f"R\t{round_index}\t{index}\t{clock() - start}\t{filled}\t0\t{written}\t0")
        sys.stderr.write(f"  pypdf: round {round_index + 1}/{rounds} done\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
