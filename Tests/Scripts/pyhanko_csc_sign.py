#!/usr/bin/env python3
"""Signs a PDF with pyHanko's own CSC signer (pyhanko.sign.signers.csc_signer) against a CSC v1
service, for the interoperability tests: Autograph must accept what pyHanko's client makes with
the same server and credential.

    pyhanko_csc_sign.py BASE_URL CREDENTIAL_ID INPUT.pdf OUTPUT.pdf [FIELD]

pyHanko ships the signer and an abstract authorization manager; this script's manager asks
`credentials/authorize` for a SAD bound to the hashes about to be signed (SCAL 2).
"""
import asyncio
import sys

import aiohttp
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.sign import fields, signers
from pyhanko.sign.signers import csc_signer


class HashBoundAuthorization(csc_signer.CSCAuthorizationManager):
    """A SAD for exactly the hashes of each signing call (`credentials/authorize` with `hash`)."""

    def __init__(self, session, service_info, credential_info):
        super().__init__(service_info, credential_info)
        self.session = session

    async def authorize_signature(self, hash_b64s):
        request = self.format_csc_auth_request(hash_b64s=hash_b64s)
        url = self.csc_session_info.endpoint_url("credentials/authorize")
        async with self.session.post(url, json=request, raise_for_status=True) as response:
            return self.parse_csc_auth_response(await response.json())


async def main(base, credential, input_path, output_path, field):
    async with aiohttp.ClientSession() as session:
        service = csc_signer.CSCServiceSessionInfo(base, credential)
        info = await csc_signer.fetch_certs_in_csc_credential(session, service)
        signer = csc_signer.CSCSigner(session, HashBoundAuthorization(session, service, info))
        with open(input_path, "rb") as source:
            writer = IncrementalPdfFileWriter(source)
            metadata = signers.PdfSignatureMetadata(field_name=field, subfilter=fields.SigSeedSubFilter.PADES)
            output = await signers.PdfSigner(metadata, signer=signer).async_sign_pdf(writer)
        with open(output_path, "wb") as target:
            target.write(output.getbuffer())


if __name__ == "__main__":
    arguments = sys.argv[1:]
    asyncio.run(main(*arguments[:4], arguments[4] if len(arguments) > 4 else "PyHankoCSC"))
