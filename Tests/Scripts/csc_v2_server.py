#!/usr/bin/env python3
"""A CSC API v2 test server written for Autograph's tests (Cloud Signature Consortium API v2.0.0.2).

No installable server speaks CSC v2 or its OAuth 2.0 flows here (certomancer-csc-dummy speaks v1
only). This one follows the v2.0.0.2 specification's requests, answers and error texts (§ numbers
below are its sections). Test data only: secrets come from the command line, state lives in memory,
and the "user" consents to every OAuth request at once. Keys and certificates come from the
certomancer configuration (architecture `autograph`), signatures from certomancer-csc-dummy's
`generic_sign_prehashed`, as with the v1 dummy server. Credentials, all SCAL 2:
  autograph/signer        RSA-2048, explicit: PIN (--pin) and OTP (--otp: a fixed value, announced
                          as TOTP); locked after 3 wrong PINs in a row
  autograph/signer-ec     EC P-384, implicit (credentials/authorize without authData)
  autograph/signer-oauth  the `signer` key, oauth2code (oauth2/authorize with scope=credential)
Listens on a port the system chooses (or --port), prints `PORT n` once it listens, and exits when
its standard input closes (Sources/PDFTestSupport/LoopbackServer.swift) or on SIGTERM. `--log FILE`
appends a line `METHOD PATH BODY-BYTES STATUS` per request, as Tests/Scripts/csc_dummy_server.py
does. `--stall-file PATH` makes signatures/signHash wait while PATH exists.
`--url-prefix` replaces the configuration's external-url-prefix in the certificates (their
OCSP, CRL and issuer URLs), as `certomancer --service-url-prefix` does. /csc/v1/* answers 404,
unimplemented v2 methods 501.
"""
import argparse
import asyncio
import base64
import binascii
import hashlib
import hmac
import json
import os
import re
import secrets
import signal
import sys
import time
import traceback
import urllib.parse
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import List, Optional

from aiohttp import web
from asn1crypto import algos
from certomancer.registry import ArchLabel, CertLabel, CertomancerConfig
from cryptography import x509
from csc_dummy.csc_dummy_server import generic_sign_prehashed

SPECS = "2.0.0.2"
CODE_TTL, SAD_TTL, SERVICE_TOKEN_TTL, CREDENTIAL_TOKEN_TTL = 60, 300, 3600, 300
MULTISIGN, MAX_FAILURES = 10, 3
HASH_OIDS = {"2.16.840.1.101.3.4.2.1": "sha256", "2.16.840.1.101.3.4.2.2": "sha384",
             "2.16.840.1.101.3.4.2.3": "sha512"}  # §5: SHA-256 or stronger
DIGEST_SIZES = {"sha256": 32, "sha384": 48, "sha512": 64}
RSA_ALGOS = ["1.2.840.113549.1.1.1", "1.2.840.113549.1.1.11", "1.2.840.113549.1.1.12",
             "1.2.840.113549.1.1.13", "1.2.840.113549.1.1.10"]
EC_ALGOS = ["1.2.840.10045.4.3.2", "1.2.840.10045.4.3.3", "1.2.840.10045.4.3.4"]
AUTH_OBJECTS = [  # §8.3.1.1 Password, §8.3.1.2 Password with a TOTP generator
    {"type": "Password", "id": "PIN", "format": "N", "label": "PIN",
     "description": "Please enter the signature PIN"},
    {"type": "Password", "id": "OTP", "format": "N", "generator": "totp", "label": "OTP",
     "description": "Please enter the 6 digit one-time password"},
]
CREDENTIALS = {  # credentialID: (certomancer label, auth mode, description)
    "autograph/signer": ("signer", "explicit", "RSA test signer (PIN and OTP)"),
    "autograph/signer-ec": ("signer-ec", "implicit", "ECDSA P-384 test signer"),  # §13.10
    "autograph/signer-oauth": ("signer", "oauth2code", "RSA test signer (OAuth 2.0 code flow)"),
}
PKCE_CHALLENGE = re.compile(r"^[A-Za-z0-9._~-]{43,128}$")  # RFC 7636 §4.2
BASE64URL = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")


class APIError(Exception):
    """An error answer: §10.2 (CSC methods) or RFC 6749 §5.2 (token endpoint) JSON body."""

    def __init__(self, status, error, description, headers=None):
        super().__init__(description)
        self.status, self.error, self.description = status, error, description
        self.headers = headers


def bad(description, error="invalid_request"):
    """A 400 error; the descriptions are the spec's error-table texts wherever it has one."""
    return APIError(400, error, description)


@dataclass
class Grant:
    """An access token (scope service or credential) or a SAD, with what it authorizes."""
    scope: str  # "service" | "credential" | "sad"
    expires: float
    credential_id: Optional[str] = None
    hashes: Optional[List[bytes]] = None
    hash_oid: Optional[str] = None
    remaining: int = 0


def b64url_sha256(text):
    """PKCE S256 (RFC 7636 §4.2): base64url(SHA-256(ASCII(verifier))) without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).decode().rstrip("=")


def same(a, b):
    """Constant-time comparison of two strings."""
    return hmac.compare_digest(a.encode(), b.encode())


def with_query(uri, **params):
    """`uri` with params added to its query component (kept, RFC 6749 §3.1.2)."""
    parts = urllib.parse.urlsplit(uri)
    extra = urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})
    query = f"{parts.query}&{extra}" if parts.query else extra
    return urllib.parse.urlunsplit(parts._replace(query=query))


def redirect_allowed(uri):
    """Loopback http(s) or private-use scheme redirection URIs only (RFC 8252 §7.1, §7.3)."""
    parts = urllib.parse.urlsplit(uri)
    if parts.fragment or not parts.scheme:
        return False
    if parts.scheme in ("http", "https"):
        return parts.hostname in ("127.0.0.1", "localhost", "::1")
    return "." in parts.scheme


def hash_name(oid, missing):
    """The digest name for a hashAlgorithmOID; `missing` is the error text when it is absent."""
    if oid is None:
        raise bad(missing)
    if not isinstance(oid, str) or oid not in HASH_OIDS:
        raise bad("Invalid parameter hashAlgorithmOID")
    return HASH_OIDS[oid]


def check_lengths(digests, name):
    """Every digest must have the length of the named hash algorithm."""
    if any(len(d) != DIGEST_SIZES[name] for d in digests):
        raise bad("Invalid digest value length")


def parse_hashes(body):
    """The `hashes` array of credentials/authorize (§11.6) and signatures/signHash (§11.10).
    §11.10's texts name the v1 parameter `hash`; these name the v2 one."""
    hashes = body.get("hashes")
    if not isinstance(hashes, list) or not all(isinstance(h, str) for h in hashes):
        raise bad("Missing (or invalid type) array parameter hashes")
    if not hashes:
        raise bad("Empty hash array")
    try:
        return [base64.b64decode(h, validate=True) for h in hashes]
    except binascii.Error:
        raise bad("Invalid Base64 hash string parameter")


async def json_body(request, empty_ok=False):
    """The request's JSON object body (§7.1); anything else is invalid_request."""
    raw = await request.read()
    if not raw and empty_ok:
        return {}
    try:
        body = json.loads(raw)
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise bad("The request body is not a JSON object")
    return body


class CSCv2Server:
    """The server's state (codes, tokens, SADs, failed attempts) and its request handlers."""

    def __init__(self, args):
        self.args = args
        config = CertomancerConfig.from_file(args.config, external_url_prefix=args.url_prefix)
        self.arch = config.get_pki_arch(ArchLabel("autograph"))
        self.codes, self.grants, self.failures = {}, {}, {}
        self.log_file = open(args.log, "a", encoding="utf-8") if args.log else None
        self.base_url = None

    # Plumbing

    @web.middleware
    async def middleware(self, request, handler):
        """Turns errors into JSON answers (never a traceback) and logs every request."""
        size = 0
        try:
            size = len(await request.read())
            response = await handler(request)
        except APIError as e:
            response = web.json_response({"error": e.error, "error_description": e.description},
                                         status=e.status, headers=e.headers)
        except web.HTTPException as e:  # 404, 405, 413 from aiohttp itself
            response = web.json_response(
                {"error": "invalid_request", "error_description": e.reason}, status=e.status)
        except Exception:
            traceback.print_exc()
            response = web.json_response({"error": "server_error", "error_description":
                                          "The server encountered an unexpected condition"},
                                         status=500)
        if self.log_file:
            self.log_file.write(f"{request.method} {request.path} {size} {response.status}\n")
            self.log_file.flush()
        return response

    def bearer(self, request, scopes=("service",)):
        """The access token of `Authorization: Bearer` (RFC 6750 §2.1, §3.1) and its grant, which
        must have one of `scopes`; else 401 invalid_token (§10.2 table 3), or 400 for a malformed
        header (the methods' error tables)."""
        header = request.headers.get("Authorization")
        challenge = {"WWW-Authenticate": 'Bearer error="invalid_token"'}
        if header is None:
            raise APIError(401, "invalid_token", "Missing access token", challenge)
        scheme, _, token = header.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise bad("Malformed authorization header")
        grant = self.grants.get(token.strip())
        if grant is None or grant.scope not in scopes or grant.expires < time.time():
            raise APIError(401, "invalid_token", "The access token is not valid", challenge)
        return token.strip(), grant

    def credential_id(self, body):
        """The request's credentialID, which must name one of CREDENTIALS."""
        cred = body.get("credentialID")
        if not isinstance(cred, str):
            raise bad("Missing (or invalid type) string parameter credentialID")
        if cred not in CREDENTIALS:
            raise bad("Invalid parameter credentialID")
        return cred

    def service(self, request, body):
        """Service authorization (§8.1): a service-scope token, or (§8.4) a credential-scope token
        for credentials/info of its own credential."""
        _, grant = self.bearer(request, ("service", "credential"))
        if grant.scope == "credential" and body.get("credentialID") != grant.credential_id:
            raise APIError(401, "invalid_token", "The access token does not cover this method")
        return grant

    # CSC methods

    async def info(self, request):
        """§11.1 info (no authorization)."""
        await json_body(request, empty_ok=True)
        return web.json_response({
            "specs": SPECS, "name": "Autograph CSC v2 test server",
            "logo": f"{self.base_url}/logo.png", "region": "XX", "lang": "en-US",
            "description": "CSC API v2 test server for Autograph's tests (certomancer keys)",
            "authType": ["oauth2code", "oauth2client"], "oauth2": self.base_url,
            "methods": ["credentials/list", "credentials/info", "credentials/authorize",
                        "signatures/signHash", "oauth2/authorize", "oauth2/token"],
            "signAlgorithms": {"algos": RSA_ALGOS + EC_ALGOS}, "asynchronousOperationMode": False})

    def credential_info(self, cred, body):
        """The CredentialInfo of §11.4/§11.5 for the certificates/certInfo/authInfo of `body`."""
        label, mode, description = CREDENTIALS[cred]
        certificates = body.get("certificates", "single")
        if certificates not in ("none", "single", "chain"):
            raise bad("Invalid parameter certificates")
        for name in ("certInfo", "authInfo"):
            if not isinstance(body.get(name, False), bool):
                raise bad(f"Invalid parameter {name}")
        cert = self.arch.get_cert(CertLabel(label))
        pub = cert.public_key
        key = {"status": "enabled", "algo": RSA_ALGOS if pub.algorithm == "rsa" else EC_ALGOS,
               "len": pub.bit_size}
        if pub.algorithm == "ec":
            key["curve"] = pub["algorithm"]["parameters"].chosen.dotted
        expired = cert.not_valid_after < datetime.now(timezone.utc)
        cert_out = {"status": "expired" if expired else "valid"}
        if certificates != "none":
            chain = [cert] + ([self.arch.get_cert(c) for c in self.arch.get_chain(CertLabel(label))]
                              if certificates == "chain" else [])
            cert_out["certificates"] = [base64.b64encode(c.dump()).decode() for c in chain]
        if body.get("certInfo"):
            parsed = x509.load_der_x509_certificate(cert.dump())
            serial = format(cert.serial_number, "X")
            cert_out.update(issuerDN=parsed.issuer.rfc4514_string(),
                            serialNumber=serial.zfill(len(serial) + len(serial) % 2),
                            subjectDN=parsed.subject.rfc4514_string(),
                            validFrom=cert.not_valid_before.strftime("%Y%m%d%H%M%SZ"),
                            validTo=cert.not_valid_after.strftime("%Y%m%d%H%M%SZ"))
        auth = {"mode": mode}
        if mode == "explicit" and body.get("authInfo"):
            auth.update(expression="PIN AND OTP", objects=AUTH_OBJECTS)
        return {"description": description, "key": key, "cert": cert_out, "auth": auth,
                "SCAL": "2", "multisign": MULTISIGN, "lang": "en-US"}, not expired

    async def credentials_list(self, request):
        """§11.4 credentials/list."""
        self.bearer(request)
        body = await json_body(request)
        only_valid, with_info = body.get("onlyValid") is True, body.get("credentialInfo") is True
        ids, infos = [], []
        for cred in self.args.list or CREDENTIALS:
            info, valid = self.credential_info(cred, body)
            if only_valid and (not valid or self.failures.get(cred, 0) >= MAX_FAILURES):
                continue
            ids.append(cred)
            infos.append({"credentialID": cred, **info})
        answer = {"credentialIDs": ids}
        if with_info:
            answer["credentialInfos"] = infos
        if only_valid:
            answer["onlyValid"] = True
        return web.json_response(answer)

    async def credentials_info(self, request):
        """§11.5 credentials/info."""
        body = await json_body(request)
        self.service(request, body)
        return web.json_response(self.credential_info(self.credential_id(body), body)[0])

    async def credentials_authorize(self, request):
        """§11.6 credentials/authorize: a SAD bound to the credential and the hashes (SCAL 2)."""
        self.bearer(request)
        body = await json_body(request)
        cred = self.credential_id(body)
        mode = CREDENTIALS[cred][1]
        if mode == "oauth2code":  # §11.6: SHALL NOT be used for oauth2code (no error text given)
            raise bad("The credential requires oauth2code authorization (oauth2/authorize)")
        if self.failures.get(cred, 0) >= MAX_FAILURES:  # §11.6 note 29
            raise bad("Credential locked")
        num = body.get("numSignatures")
        if not isinstance(num, int) or isinstance(num, bool):
            raise bad("Missing (or invalid type) integer parameter numSignatures")
        if num < 1:
            raise bad("Invalid value for parameter numSignatures")
        if num > MULTISIGN:
            raise bad("Numbers of signatures is too high")
        digests = parse_hashes(body)
        if len(digests) != num:
            raise bad("Invalid parameter hashes")
        name = hash_name(body.get("hashAlgorithmOID"),
                         "Missing (or invalid type) string parameter hashAlgorithmOID")
        check_lengths(digests, name)
        if mode == "explicit":
            self.check_auth_data(cred, body.get("authData"))
        sad = secrets.token_urlsafe(32)
        self.grants[sad] = Grant("sad", time.time() + SAD_TTL, cred, digests,
                                 body["hashAlgorithmOID"], num)
        return web.json_response({"SAD": sad, "expiresIn": SAD_TTL})

    def check_auth_data(self, cred, auth_data):
        """Checks authData's PIN and OTP (§8.3); MAX_FAILURES wrong PINs in a row lock."""
        if not isinstance(auth_data, list) or not all(isinstance(o, dict) for o in auth_data):
            raise bad("Missing (or invalid type) array parameter authData")
        values = {o.get("id"): o.get("value") for o in auth_data}
        pin, otp = values.get("PIN"), values.get("OTP")
        pin_ok = isinstance(pin, str) and same(pin, self.args.pin)
        self.failures[cred] = 0 if pin_ok else self.failures.get(cred, 0) + 1
        if pin_ok and isinstance(otp, str) and same(otp, self.args.otp):
            return
        # §11.6: one error for any invalid authentication data (v2 has no invalid_pin/invalid_otp
        # here; signHash's "invalid_otp" concerns a SAD made with an invalid OTP).
        raise bad("The authentication data is invalid", "invalid_authentication_data")

    def sign_algorithm(self, body, key_algos):
        """signAlgo, signAlgoParams and hashAlgorithmOID (§11.10): the SignedDigestAlgorithm and
        the digest name. hashAlgorithmOID is ignored when signAlgo implies the hash."""
        oid = body.get("signAlgo")
        if not isinstance(oid, str):
            raise bad("Missing (or invalid type) string parameter signAlgo")
        if oid not in key_algos:
            raise bad("Invalid parameter signAlgo")
        name, params = algos.SignedDigestAlgorithmId(oid).native, None
        hash_oid = body.get("hashAlgorithmOID")
        missing = "Missing (or invalid type) string parameter hashAlgorithmOID"
        if name == "rsassa_pss":
            raw = body.get("signAlgoParams")
            if not isinstance(raw, str):
                raise bad("Missing (or invalid type) string parameter signAlgoParams")
            try:
                params = algos.RSASSAPSSParams.load(base64.b64decode(raw, validate=True))
                implied = params["hash_algorithm"]["algorithm"].native
                mgf = params["mask_gen_algorithm"]
                usable = (mgf["algorithm"].native == "mgf1" and implied in DIGEST_SIZES
                          and mgf["parameters"]["algorithm"].native in DIGEST_SIZES)
            except (ValueError, TypeError, KeyError, binascii.Error):
                usable = False
            if not usable:
                raise bad("Invalid parameter signAlgoParams")
            digest = implied if hash_oid is None else hash_name(hash_oid, missing)
            if digest != implied:
                raise bad("Invalid parameter hashAlgorithmOID")
        elif name == "rsassa_pkcs1v15":
            digest = hash_name(hash_oid, missing)
        else:
            digest = algos.SignedDigestAlgorithm({"algorithm": name}).hash_algo
        return algos.SignedDigestAlgorithm({"algorithm": name, "parameters": params}), digest

    async def signatures_sign_hash(self, request):
        """§11.10 signatures/signHash (synchronous): the hashes signed, in order."""
        # A service that stops answering (the crash tests kill the client while it waits).
        while self.args.stall_file and os.path.exists(self.args.stall_file):
            await asyncio.sleep(0.1)
        token, bearer = self.bearer(request, ("service", "credential"))
        body = await json_body(request)
        cred = self.credential_id(body)
        if bearer.scope == "credential":  # §8.4: the credential token stands for the SAD
            if bearer.credential_id != cred:
                raise APIError(401, "invalid_token", "The access token is not for this credential")
            key, grant = token, bearer
        else:
            key = body.get("SAD")
            if not isinstance(key, str):
                raise bad("Missing (or invalid type) string parameter SAD")
            grant = self.grants.get(key)  # a SAD, or a credential token passed as SAD (§11.10)
            if grant is None or grant.scope == "service" or grant.credential_id != cred:
                raise bad("Invalid parameter SAD")
            if grant.expires < time.time():
                raise bad("SAD expired")
        if body.get("operationMode", "S") != "S":
            raise bad("Invalid parameter operationMode")
        digests = parse_hashes(body)
        label = CertLabel(CREDENTIALS[cred][0])
        rsa = self.arch.get_cert(label).public_key.algorithm == "rsa"
        sd_algo, digest = self.sign_algorithm(body, RSA_ALGOS if rsa else EC_ALGOS)
        check_lengths(digests, digest)
        if grant.hash_oid and HASH_OIDS[grant.hash_oid] != digest:
            raise bad("Invalid parameter hashAlgorithmOID")
        if any(d not in grant.hashes for d in digests):
            raise bad("Hash is not authorized by the SAD")
        if len(digests) > grant.remaining:  # §9: never more than the authorized number
            raise bad("Numbers of signatures is too high")
        private_key = self.arch.key_set.get_private_key(self.arch.get_cert_spec(label).subject_key)
        try:
            signatures = [generic_sign_prehashed(private_key, d, sd_algo, digest_algorithm=digest)
                          for d in digests]
        except ValueError:  # e.g. a PSS salt too long for the key
            raise bad("Invalid parameter signAlgoParams")
        grant.remaining -= len(digests)
        if grant.remaining == 0 or grant.scope == "credential":  # §11.9; a credential token: once
            del self.grants[key]
        return web.json_response({"signatures": [base64.b64encode(s).decode() for s in signatures]})

    async def not_implemented(self, request):
        """§10.1: 501 for a method this server does not implement."""
        method = request.match_info["method"]
        raise APIError(501, "not_implemented", f"Unimplemented method {method}")

    # OAuth 2.0 (§8.4.2, §8.4.4; RFC 6749, RFC 7636)

    async def oauth2_authorize(self, request):
        """§8.4.2 oauth2/authorize: the test user consents at once; 302 to redirect_uri."""
        q = request.query
        client_id, redirect_uri, state = q.get("client_id"), q.get("redirect_uri"), q.get("state")
        if not client_id or not same(client_id, self.args.client_id):
            raise bad("Invalid parameter client_id")  # RFC 6749 §4.1.2.1: never redirected
        if not redirect_uri or not redirect_allowed(redirect_uri):
            raise bad("Missing or invalid parameter redirect_uri")

        def fail(description, error="invalid_request"):
            return web.Response(status=302, headers={"Location": with_query(
                redirect_uri, error=error, error_description=description, state=state)})

        if not q.get("response_type"):
            return fail("Missing parameter response_type")
        if q.get("response_type") != "code":
            return fail("Invalid parameter response_type", "unsupported_response_type")
        if not PKCE_CHALLENGE.match(q.get("code_challenge") or ""):
            return fail("Missing or invalid parameter code_challenge")  # RFC 7636 §4.4.1
        if q.get("code_challenge_method") != "S256":
            return fail("transform algorithm not supported")
        scope = q.get("scope", "service")
        binding = Grant(scope, 0)
        if scope == "credential":
            try:
                self.credential_binding(q, binding)
            except APIError as e:
                return fail(e.description)
        elif scope != "service":
            return fail("Invalid parameter scope", "invalid_scope")
        code = secrets.token_urlsafe(24)
        self.codes[code] = (redirect_uri, q["code_challenge"], binding, time.time() + CODE_TTL)
        location = with_query(redirect_uri, code=code, state=state)
        return web.Response(status=302, headers={"Location": location})

    def credential_binding(self, q, binding):
        """Fills `binding` from credentialID, numSignatures, hashes (comma-separated base64url)
        and hashAlgorithmOID of a scope=credential request (§8.4.2)."""
        cred, num, hashes = q.get("credentialID"), q.get("numSignatures"), q.get("hashes")
        if not cred or not num or not hashes:
            raise bad("Missing parameter credentialID, numSignatures or hashes")
        if cred not in CREDENTIALS or CREDENTIALS[cred][1] != "oauth2code":
            raise bad("Invalid parameter credentialID")
        if not num.isdigit() or int(num) < 1:
            raise bad("Invalid value for parameter numSignatures")
        if int(num) > MULTISIGN:
            raise bad("Numbers of signatures is too high")
        parts = hashes.split(",")
        if not all(BASE64URL.match(p) for p in parts):
            raise bad("Invalid Base64 hashes string parameter")
        digests = [base64.urlsafe_b64decode(p.rstrip("=") + "=" * (-len(p.rstrip("=")) % 4))
                   for p in parts]
        if len(digests) != int(num):
            raise bad("Invalid parameter hashes")
        name = hash_name(q.get("hashAlgorithmOID"), "Missing parameter hashAlgorithmOID")
        check_lengths(digests, name)
        binding.credential_id, binding.hashes = cred, digests
        binding.hash_oid, binding.remaining = q["hashAlgorithmOID"], int(num)

    def client(self, request, form):
        """Client authentication (RFC 6749 §2.3.1): HTTP Basic, or client_id and client_secret.
        Failures are 401 invalid_client with a Basic challenge (RFC 6749 §5.2)."""
        def refuse(description):
            return APIError(401, "invalid_client", description,
                            {"WWW-Authenticate": 'Basic realm="oauth2"'})
        header = request.headers.get("Authorization")
        if header:
            scheme, _, value = header.strip().partition(" ")
            try:
                decoded = base64.b64decode(value.strip(), validate=True).decode()
            except (binascii.Error, UnicodeDecodeError):
                decoded = ""
            if scheme.lower() != "basic" or ":" not in decoded:
                raise refuse("Malformed authorization header")
            client_id, secret = map(urllib.parse.unquote_plus, decoded.split(":", 1))
        else:
            client_id, secret = form.get("client_id"), form.get("client_secret")
            if not client_id or secret is None:
                raise refuse("Client authorization required")
        if not same(client_id, self.args.client_id):
            raise refuse("Invalid parameter client_id")
        if not same(secret, self.args.client_secret):
            raise refuse("Invalid parameter client_secret")

    def issue(self, binding):
        """A new access token (RFC 6749 §5.1) of `binding`'s scope, credential and hashes."""
        token = secrets.token_urlsafe(32)
        ttl = SERVICE_TOKEN_TTL if binding.scope == "service" else CREDENTIAL_TOKEN_TTL
        binding.expires = time.time() + ttl
        self.grants[token] = binding
        answer = {"access_token": token, "token_type": "Bearer", "expires_in": ttl}
        return web.json_response(answer, headers={"Cache-Control": "no-store",
                                                  "Pragma": "no-cache"})

    async def oauth2_token(self, request):
        """§8.4.4 oauth2/token: client_credentials and authorization_code (with PKCE S256).
        Error codes are RFC 6749 §5.2's, descriptions §8.4.4's error table where it has one."""
        if request.content_type != "application/x-www-form-urlencoded":
            raise bad("The request body is not application/x-www-form-urlencoded")
        form = await request.post()
        self.client(request, form)
        grant_type = form.get("grant_type")
        if not grant_type:
            raise bad("Missing parameter grant_type")
        if grant_type == "client_credentials":
            if form.get("scope", "service") != "service":
                raise bad("Invalid parameter scope", "invalid_scope")
            return self.issue(Grant("service", 0))
        if grant_type != "authorization_code":
            raise bad("Invalid parameter grant_type", "unsupported_grant_type")
        code = form.get("code")
        if not code:
            raise bad("Missing parameter code")
        # A code (RFC 6749 §4.1.2) is used once, within CODE_TTL seconds.
        redirect_uri, challenge, binding, expires = self.codes.get(code, (None, None, None, 0))
        if expires < time.time():
            raise bad("Authorization code is invalid or expired", "invalid_grant")
        if form.get("redirect_uri") != redirect_uri:
            raise bad("redirect_uri parameter does not match", "invalid_grant")
        verifier = form.get("code_verifier")
        if not verifier:
            raise bad("Missing parameter code_verifier")
        if not same(b64url_sha256(verifier), challenge):  # RFC 7636 §4.6
            raise bad("code_verifier does not match the code challenge", "invalid_grant")
        del self.codes[code]
        return self.issue(binding)

    # Running

    def application(self):
        """The aiohttp application with its routes."""
        app = web.Application(middlewares=[self.middleware])
        app.add_routes([
            web.post("/csc/v2/info", self.info),
            web.post("/csc/v2/credentials/list", self.credentials_list),
            web.post("/csc/v2/credentials/info", self.credentials_info),
            web.post("/csc/v2/credentials/authorize", self.credentials_authorize),
            web.post("/csc/v2/signatures/signHash", self.signatures_sign_hash),
            web.post("/csc/v2/{method:.+}", self.not_implemented),
            web.get("/oauth2/authorize", self.oauth2_authorize),
            web.post("/oauth2/token", self.oauth2_token),
        ])
        return app

    async def serve(self):
        """Listens on host:port, prints `PORT n`, and runs until standard input closes, SIGTERM or SIGINT."""
        runner = web.AppRunner(self.application(), access_log=None)
        await runner.setup()
        await web.TCPSite(runner, self.args.host, self.args.port).start()
        host, port = runner.addresses[0][:2]
        self.base_url = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
        print(f"PORT {port}", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        loop.run_in_executor(None, lambda: (sys.stdin.read(), loop.call_soon_threadsafe(stop.set)))
        await stop.wait()
        await runner.cleanup()


def main():
    """Parses the command line and runs the server."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True, help="certomancer configuration file")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="default: a free port the system chooses")
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--client-secret", required=True)
    parser.add_argument("--pin", default="1234")
    parser.add_argument("--otp", default="123456")
    parser.add_argument("--log", help="append a line per request to this file")
    parser.add_argument("--url-prefix", help="the service URL prefix written into the certificates")
    parser.add_argument("--stall-file", help="while this file exists, signatures/signHash does not answer")
    parser.add_argument("--list", nargs="*", choices=list(CREDENTIALS),
                        help="the credentials credentials/list names (default: all); the others still answer")
    asyncio.run(CSCv2Server(parser.parse_args()).serve())


if __name__ == "__main__":
    main()
