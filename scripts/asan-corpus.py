#!/usr/bin/env python3
"""Runs an AddressSanitizer build of autograph over every PDF of the corpus (run by `make asan`).

    scripts/asan-corpus.py --autograph .build/asan/release/autograph [--corpus ../shared/corpus] [--out DIR]

For each file, in one run: `info`, `render` (every page at 20 dpi), `text`, `export-values` then
`fill` with those values, `sign` (an invisible signature with the test PKI's RSA signer,
`Tests/Fixtures/pki/signer-rsa2048.p12`) and `verify` of the original and of the signed copy
(`--revocation off`, trusting the test root). Encrypted files get the password `dev-catalog.tsv`
gives. Exit codes of the commands are counted, not judged (a damaged file may be refused); what
fails the run is an AddressSanitizer report, or a process killed by a signal (a trap), in any
command's output. Each report is kept in OUT/reports. With no corpus: a notice, exit 0.
"""
import argparse
import collections
import csv
import glob
import os
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKI = os.path.join(ROOT, "Tests", "Fixtures", "pki")
TIMEOUT = 300


def passwords(corpus):
    """File → password, from the corpus's catalog."""
    found = {}
    path = os.path.join(corpus, "dev-catalog.tsv")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                if row.get("password") and row["password"] != "(empty)":
                    found[row["file"]] = row["password"]
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--autograph", default=os.path.join(ROOT, ".build/asan/release/autograph"))
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    parser.add_argument("--out", default=os.path.join(ROOT, ".build/asan-corpus"))
    options = parser.parse_args()
    if not os.path.isdir(options.corpus):
        print(f"asan: the corpus ({options.corpus}) is absent; nothing was run")
        return 0
    shutil.rmtree(options.out, ignore_errors=True)
    reports_dir = os.path.join(options.out, "reports")
    work = os.path.join(options.out, "work")
    os.makedirs(reports_dir)
    os.makedirs(work)
    environment = dict(os.environ)
    environment["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=0:print_summary=1"
    known = passwords(options.corpus)
    files = sorted(glob.glob(os.path.join(options.corpus, "**", "*.pdf"), recursive=True))
    statuses = collections.defaultdict(collections.Counter)
    reports = []
    crashes = []
    timeouts = []
    commands = 0
    started = time.time()

    def run(name, label, arguments):
        nonlocal commands
        commands += 1
        try:
            result = subprocess.run(
                [options.autograph] + arguments, capture_output=True, env=environment, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            timeouts.append(f"{name} {label}")
            statuses[label]["timeout"] += 1
            return None
        output = result.stderr.decode("utf-8", "replace") + result.stdout.decode("utf-8", "replace")
        code = result.returncode
        statuses[label][code if code >= 0 else signal.Signals(-code).name] += 1
        stem = name.replace("/", "_") + "-" + label
        if "ERROR: AddressSanitizer" in output or "runtime error:" in output:
            reports.append(f"{name} {label}")
            with open(os.path.join(reports_dir, stem + ".txt"), "w", encoding="utf-8") as handle:
                handle.write(" ".join(arguments) + "\n\n" + output)
        elif code < 0:
            crashes.append(f"{name} {label} ({signal.Signals(-code).name})")
            with open(os.path.join(reports_dir, stem + "-signal.txt"), "w", encoding="utf-8") as handle:
                handle.write(" ".join(arguments) + "\n\n" + output)
        return code

    for path in files:
        name = os.path.relpath(path, options.corpus)
        password = ["--password", known[name]] if name in known else []
        base = os.path.join(work, name.replace("/", "_")[:-4])
        run(name, "info", ["info", path] + password)
        run(name, "render", ["render", path, "-o", base + ".png", "--pages", "1-", "--dpi", "20"] + password)
        run(name, "text", ["text", path] + password)
        values = base + "-values.json"
        if run(name, "export-values", ["export-values", path, "-o", values] + password) == 0:
            run(name, "fill", ["fill", path, "--values", values, "-o", base + "-filled.pdf"] + password)
        signed = base + "-signed.pdf"
        run(name, "sign", [
            "sign", path, "-o", signed, "--p12", os.path.join(PKI, "signer-rsa2048.p12"), "--p12-password", "secret",
            "--invisible"] + password)
        trust = ["--trust", os.path.join(PKI, "root.cert.pem"), "--revocation", "off"]
        run(name, "verify", ["verify", path] + trust + password)
        if os.path.exists(signed):
            run(name, "verify-signed", ["verify", signed] + trust + password)
        for leftover in glob.glob(base + "*"):
            os.remove(leftover)

    print(f"asan: {len(files)} files, {commands} commands in {time.time() - started:.0f} s "
          f"({options.autograph}, ASAN_OPTIONS={environment['ASAN_OPTIONS']})")
    for label, counter in statuses.items():
        summary = ", ".join(f"exit {code}: {count}" for code, count in sorted(counter.items(), key=str))
        print(f"  {label:14} {summary}")
    print(f"asan: {len(reports)} AddressSanitizer reports, {len(crashes)} processes killed by a signal, "
          f"{len(timeouts)} over {TIMEOUT} s")
    for line in reports + crashes + timeouts:
        print(f"  {line}")
    if reports or crashes:
        print(f"asan: reports in {reports_dir}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
