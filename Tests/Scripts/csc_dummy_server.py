#!/usr/bin/env python3
"""Runs certomancer-csc-dummy (PyPI, a CSC API v1 server) on 127.0.0.1 for the tests.

    csc_dummy_server.py [--cache-keys] CONFIG.yml SCAL LOG [SERVICE_URL_PREFIX]

The package's own runner (`python -m csc_dummy`) binds `localhost` on the port its caller names;
this one starts the same application, `CSCWithCertomancer`, on 127.0.0.1 and a port the system
chooses, prints `PORT n` once it listens, and exits when its standard input closes (see
Sources/PDFTestSupport/LoopbackServer.swift). SCAL 2 makes the server require hashes in
`credentials/authorize` and bind the SAD to them; SCAL 1 does not. Every certificate of the
configuration's PKI architectures is a credential `ARCHITECTURE/CERTIFICATE-LABEL`. Each request
appends a line `METHOD PATH BODY-BYTES STATUS` to LOG (the tests count what clients send).
SERVICE_URL_PREFIX replaces the configuration's `external-url-prefix` in the certificates it makes
(their OCSP, CRL and issuer URLs), as `certomancer --service-url-prefix` does: given the prefix of
a running Animator, the certificates are those the Animator makes and answers for.

--cache-keys (the benchmark's): the server loads a credential's private key for every hash it
signs, and `cryptography` checks an RSA key each time it loads one (about 60 ms for RSA-2048 here,
against 1 ms for P-384), a cost no service with its keys in an HSM pays; with this flag each key
is loaded once, so that signing rates measure the clients rather than the key loading. Nothing
else changes.
"""
import asyncio
import functools
import logging
import sys

from aiohttp import web
from certomancer import registry
from csc_dummy.csc_dummy_server import CSCWithCertomancer, DummyServiceParams


def request_logger(path: str):
    """A middleware appending each request's method, path, body size and status to `path`."""

    @web.middleware
    async def log_request(request, handler):
        body = await request.read()
        try:
            response = await handler(request)
            status = response.status
        except web.HTTPException as refusal:
            status = refusal.status
            raise
        finally:
            with open(path, "a") as log:
                log.write(f"{request.method} {request.path} {len(body)} {status}\n")
        return response

    return log_request


async def main(config_path: str, scal: int, log_path: str, prefix: str | None) -> None:
    config = registry.CertomancerConfig.from_file(config_path, external_url_prefix=prefix)
    csc = CSCWithCertomancer(config, service_params=DummyServiceParams(hash_pinning_required=scal >= 2))
    csc.register_routes()
    csc.app.middlewares.append(request_logger(log_path))
    runner = web.AppRunner(csc.app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    print(f"PORT {port}", flush=True)
    # Until the test closes our standard input (or ends).
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await runner.cleanup()


def cache_loaded_keys() -> None:
    """Makes `load_der_private_key`, which the dummy calls for every hash, load each key once."""
    from cryptography.hazmat.primitives import serialization

    serialization.load_der_private_key = functools.lru_cache(maxsize=64)(serialization.load_der_private_key)


if __name__ == "__main__":
    logging.basicConfig(level=logging.CRITICAL)
    arguments = sys.argv[1:]
    if "--cache-keys" in arguments:
        arguments.remove("--cache-keys")
        cache_loaded_keys()
    asyncio.run(main(arguments[0], int(arguments[1]), arguments[2], arguments[3] if len(arguments) > 3 else None))
