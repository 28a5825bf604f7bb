#!/usr/bin/env python3
"""The pyHanko side of autograph-bench's pkcs11 throughput (run by it as a child process).

    pyhanko_pkcs11.py MODULE TOKEN_LABEL PIN_FILE KEY_LABEL CHAIN.pem DOCUMENT COUNT THREADS,... ROUNDS SAMPLE.pdf

pyHanko's own PKCS#11 signer (pyhanko.sign.pkcs11.PKCS11Signer) on a session of the token: the key
and its certificate found by KEY_LABEL, the chain embedded from CHAIN.pem (as `other-certs` does in a
CLI configuration), the raw mechanism for an EC key (CKM_ECDSA over pyHanko's hash: SoftHSM 2.6 has no
CKM_ECDSA_SHA256), CKM_SHA256_RSA_PKCS for an RSA key. DOCUMENT is read once. Each signature, timed
with the rest of its pass: IncrementalPdfFileWriter over the bytes, signers.sign_pdf with a new
invisible field `Sig`, PAdES (/SubFilter ETSI.CAdES.detached), SHA-256, into memory.

For each THREADS value (e.g. "1,8"), ROUNDS passes of COUNT signatures: with 1 thread in this thread;
with more, a ThreadPoolExecutor(THREADS), each worker signing its share (COUNT / THREADS, the first ones
one more) with a signer and a session of its own. python-pkcs11 could share one session between
threads (it holds a per-session lock around each operation, and releases the GIL in each PKCS#11
call), but then the token's work is serialised; a session per thread lets the token sign several at
once, as Autograph's pool of sessions does. Only the first session logs in: the login is the token's,
for the whole application. Sessions and signers are made, and each signer signs once, before
anything is timed.

Output, one line each: "V \\t DESCRIPTION", then per pass "T \\t THREADS \\t ROUND \\t SIGNATURES \\t
SECONDS", or "F \\t REASON" when signing failed (exit 1). The last signed document is written to
SAMPLE.pdf, for the bench to check.
"""

import io
import logging
import sys
import time
from concurrent.futures import ThreadPoolExecutor


def emit(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    logging.getLogger("pyhanko").setLevel(logging.ERROR)
    if len(sys.argv) != 11:
        sys.stderr.write(__doc__)
        return 64
    module, token_label, pin_file, key_label, chain_path, document = sys.argv[1:7]
    count = int(sys.argv[7])
    thread_counts = [int(value) for value in sys.argv[8].split(",")]
    rounds = int(sys.argv[9])
    sample = sys.argv[10]

    from importlib.metadata import version

    import pkcs11
    from pyhanko.config.pkcs11 import TokenCriteria
    from pyhanko.keys import load_certs_from_pemder
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import fields, signers
    from pyhanko.sign.pkcs11 import PKCS11Signer, open_pkcs11_session

    with open(pin_file, encoding="utf-8") as handle:
        pin = handle.read().strip()
    with open(document, "rb") as handle:
        data = handle.read()
    chain = list(load_certs_from_pemder([chain_path]))

    sessions = []

    def make_signer():
        # The first session logs the user in for the application; a second C_Login would fail
        # with CKR_USER_ALREADY_LOGGED_IN.
        session = open_pkcs11_session(
            module, token_criteria=TokenCriteria(label=token_label), user_pin=None if sessions else pin
        )
        sessions.append(session)
        probe = PKCS11Signer(session, key_label=key_label, cert_label=key_label)
        raw = probe.signing_cert.public_key.algorithm == "ec"
        return PKCS11Signer(
            session, key_label=key_label, cert_label=key_label, ca_chain=chain, use_raw_mechanism=raw
        )

    metadata = signers.PdfSignatureMetadata(field_name="Sig", subfilter=fields.SigSeedSubFilter.PADES)

    def sign(signer):
        writer = IncrementalPdfFileWriter(io.BytesIO(data))
        return signers.sign_pdf(writer, metadata, signer=signer).getvalue()

    signers_made = [make_signer() for _ in range(max(thread_counts))]
    key = signers_made[0].signing_cert.public_key.algorithm
    emit(
        f"V\tpyHanko {version('pyhanko')}, python-pkcs11 {version('python-pkcs11')} "
        f"(in process, {key.upper()}, a session per thread)"
    )
    last = b""
    try:
        for signer in signers_made:
            last = sign(signer)
        for threads in thread_counts:
            shares = [count // threads + (1 if index < count % threads else 0) for index in range(threads)]
            for round_number in range(rounds):
                if threads == 1:
                    start = time.perf_counter()
                    for _ in range(count):
                        last = sign(signers_made[0])
                    seconds = time.perf_counter() - start
                else:

                    def work(index):
                        result = b""
                        for _ in range(shares[index]):
                            result = sign(signers_made[index])
                        return result

                    with ThreadPoolExecutor(max_workers=threads) as pool:
                        start = time.perf_counter()
                        results = list(pool.map(work, range(threads)))
                        seconds = time.perf_counter() - start
                    last = results[-1] or last
                emit(f"T\t{threads}\t{round_number}\t{count}\t{seconds!r}")
    except Exception as error:  # noqa: BLE001 - reported to the bench
        emit(f"F\t{' '.join(f'{type(error).__name__}: {error}'.split())}")
        return 1
    finally:
        with open(sample, "wb") as handle:
            handle.write(last)
        for session in reversed(sessions):
            try:
                session.close()
            except pkcs11.PKCS11Error:
                pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
