#!/usr/bin/env python3
"""The pyHanko side of autograph-bench's csc throughput (run by it as a child process).

    pyhanko_csc.py BASE_URL CREDENTIAL_ID DOCUMENT COUNT TASKS,... ROUNDS SAMPLE.pdf SERVER_LOG

pyHanko's own CSC signer (pyhanko.sign.signers.csc_signer) against a CSC API v1 service: one aiohttp
session, the credential's certificates fetched once (fetch_certs_in_csc_credential), an authorization
manager that asks `credentials/authorize` for a SAD bound to the hashes of each signing call (SCAL 2:
the HashBoundAuthorization of Tests/Scripts/pyhanko_csc_sign.py, imported from there), CSCSigner with
its defaults: batch_size 1 and batch_autocommit, so every signature is one `credentials/authorize` and
one `signatures/signHash`.
DOCUMENT is read once. Each signature, timed with the rest of its pass: IncrementalPdfFileWriter
over the bytes, PdfSigner(...).async_sign_pdf with a new invisible field `Sig`, PAdES
(/SubFilter ETSI.CAdES.detached), SHA-256, into a BytesIO.

For each TASKS value (e.g. "1,8"), ROUNDS passes of COUNT signatures: with 1 task one after the
other; with more, that many asyncio tasks (asyncio.gather), each signing its share (COUNT / TASKS,
the first ones one more) with a CSCSigner of its own on the shared session. One CSCSigner shared by
the tasks would serialise them (with batch_size 1 a signature waits for the call under way to
finish); a signer per task keeps TASKS calls in flight, as many as Autograph's tasks. Each signer
signs once before anything is timed.

SERVER_LOG is the server's request log (one line per request, written before the answer is sent):
after each pass, untimed, the lines it gained are the requests of the pass.

Output, one line each: "V \\t DESCRIPTION", then per pass "T \\t TASKS \\t ROUND \\t SIGNATURES \\t
SECONDS \\t REQUESTS", or "F \\t REASON" when signing failed (exit 1). The last signed document is
written to SAMPLE.pdf, for the bench to check.
"""

import asyncio
import io
import logging
import os
import sys
import time

# The root package's Tests/Scripts, for the tests' CSC script and its authorization manager.
SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Scripts")
sys.path.insert(0, os.path.normpath(SCRIPTS))


def emit(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def log_lines(path):
    """The number of lines in the server's log."""
    try:
        with open(path, "rb") as handle:
            return handle.read().count(b"\n")
    except OSError:
        return 0


async def run(base, credential, data, count, task_counts, rounds, server_log, state):
    from importlib.metadata import version

    import aiohttp
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import fields, signers
    from pyhanko.sign.signers import csc_signer
    from pyhanko_csc_sign import HashBoundAuthorization

    metadata = signers.PdfSignatureMetadata(field_name="Sig", subfilter=fields.SigSeedSubFilter.PADES)

    # One session for every signer (its default limit, 100 connections, is above the task counts).
    async with aiohttp.ClientSession() as session:
        service = csc_signer.CSCServiceSessionInfo(base, credential)
        info = await csc_signer.fetch_certs_in_csc_credential(session, service)
        authorization = HashBoundAuthorization(session, service, info)
        made = [csc_signer.CSCSigner(session, authorization) for _ in range(max(task_counts))]
        key = info.signing_cert.public_key.algorithm
        emit(
            f"V\tpyHanko {version('pyhanko')}, aiohttp {version('aiohttp')} (in process, {key.upper()}, "
            f"CSCSigner batch_size 1, a signer per task)"
        )

        async def sign(signer):
            writer = IncrementalPdfFileWriter(io.BytesIO(data))
            output = await signers.PdfSigner(metadata, signer=signer).async_sign_pdf(writer)
            return output.getvalue()

        for signer in made:
            state["last"] = await sign(signer)
        for tasks in task_counts:
            shares = [count // tasks + (1 if index < count % tasks else 0) for index in range(tasks)]

            async def work(index):
                result = b""
                for _ in range(shares[index]):
                    result = await sign(made[index])
                return result

            for round_number in range(rounds):
                before = log_lines(server_log)
                start = time.perf_counter()
                results = await asyncio.gather(*(work(index) for index in range(tasks)))
                seconds = time.perf_counter() - start
                requests = log_lines(server_log) - before
                state["last"] = results[-1] or state["last"]
                emit(f"T\t{tasks}\t{round_number}\t{count}\t{seconds!r}\t{requests}")


def main():
    logging.getLogger("pyhanko").setLevel(logging.ERROR)
    if len(sys.argv) != 9:
        sys.stderr.write(__doc__)
        return 64
    base, credential, document = sys.argv[1:4]
    count = int(sys.argv[4])
    task_counts = [int(value) for value in sys.argv[5].split(",")]
    rounds = int(sys.argv[6])
    sample, server_log = sys.argv[7], sys.argv[8]
    with open(document, "rb") as handle:
        data = handle.read()
    state = {"last": b""}
    try:
        asyncio.run(run(base, credential, data, count, task_counts, rounds, server_log, state))
    except Exception as error:  # noqa: BLE001 - reported to the bench
        emit(f"F\t{' '.join(f'{type(error).__name__}: {error}'.split())}")
        return 1
    finally:
        with open(sample, "wb") as handle:
            handle.write(state["last"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
