#!/usr/bin/env python3
"""The pikepdf side of autograph-bench's corpus benchmark (run by it as a child process).

    pikepdf_corpus.py TASK_LIST ROUNDS

For every task of the list (lines "INDEX \\t HAS_PASSWORD \\t PASSWORD \\t PATH"), once per round and
all in this one process: open the file with pikepdf (with the password), iterate `pdf.objects`
resolving each, and read every stream with its general-purpose filters undone
(`read_bytes(decode_level=StreamDecodeLevel.generalized)`, errors counted and ignored), then close.

Only that work is timed (time.perf_counter around it), not the interpreter start or the imports.
The output protocol is described in Benchmarks/Sources/autograph-bench/CorpusWorker.swift: one
line per event, flushed at once, so a crash loses nothing.
"""

import sys
import time


def read_tasks(path):
    tasks = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if not line:
                continue
            index, has_password, password, file_path = line.split("\t", 3)
            tasks.append((int(index), file_path, password if has_password == "1" else None))
    return tasks


def emit(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def field(text):
    return " ".join(str(text).split())


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 64
    tasks = read_tasks(sys.argv[1])
    rounds = int(sys.argv[2])

    import pikepdf

    stream_type = pikepdf.Stream
    generalized = pikepdf.StreamDecodeLevel.generalized
    emit(f"V\tpikepdf {pikepdf.__version__} (libqpdf {pikepdf.__libqpdf_version__}, in process)")
    clock = time.perf_counter
    interactive = sys.stderr.isatty()

    def progress(message, final=False):
        if interactive:
            sys.stderr.write("\r\x1b[K" + message + ("\n" if final else ""))
        elif final:
            sys.stderr.write(message + "\n")
        sys.stderr.flush()

    for round_number in range(rounds):
        round_seconds = 0.0
        for position, (index, path, password) in enumerate(tasks):
            emit(f"S\t{round_number}\t{index}")
            start = clock()
            try:
                pdf = pikepdf.open(path, password=password or "")
            except Exception as error:  # noqa: BLE001 - any failure to open skips the file
                emit(f"F\t{round_number}\t{index}\t{clock() - start}\t{field(type(error).__name__ + ': ' + str(error))}")
                continue
            objects = streams = decoded = errors = 0
            try:
                for obj in pdf.objects:
                    objects += 1
                    if isinstance(obj, stream_type):  # resolves the object
                        streams += 1
                        try:
                            decoded += len(obj.read_bytes(decode_level=generalized))
                        except Exception:  # noqa: BLE001
                            errors += 1
            except Exception:  # noqa: BLE001 - a damaged object table: count it, keep what was done
                errors += 1
            finally:
                pdf.close()
            seconds = clock() - start
            round_seconds += seconds
            emit(f"R\t{round_number}\t{index}\t{seconds}\t{objects}\t{streams}\t{decoded}\t{errors}")
            if position % 10 == 9:
                progress(f"  pikepdf: round {round_number + 1}/{rounds}, {position + 1}/{len(tasks)} files")
        progress(
            f"  pikepdf: round {round_number + 1}/{rounds} done, {round_seconds:.3f} s over {len(tasks)} files",
            final=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
