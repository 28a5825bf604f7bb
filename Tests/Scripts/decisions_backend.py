#!/usr/bin/env python3
"""A host's backend for `autograph serve --decisions URL`, as docs/web-api.md ("Server-side hosts")
describes one, for the tests (Tests/PDFWebTests/WebHostDecisionsTests.swift).

    decisions_backend.py --secret SECRET [--sleep SECONDS]

Prints `PORT n` once it listens on 127.0.0.1 and exits when its standard input closes. Each
`POST /decisions` is checked: `X-Autograph-Timestamp` within 300 s of now and `X-Autograph-Signature`
equal to `sha256=` + hex(HMAC-SHA-256(SECRET, TIMESTAMP + "." + BODY)), compared in constant time;
otherwise 401. A checked question is recorded, and answered (after SECONDS when --sleep is given):
  willStartSigning       true, changing capture.displayText to "Approved by the backend"
  signingProcessStarted  [] (no field made read-only)
  willConfirmSigning     false the first time, true after
  anything else          true ({} for a notification)
`GET /recorded` lists the questions recorded, in order, and how many requests were refused.
"""
import argparse
import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DISPLAY_TEXT = "Approved by the backend"
MAX_SKEW = 300
recorded = []
refused = 0
lock = threading.Lock()
options = None


def verify(headers, body):
    """True when the timestamp is recent and the signature is the HMAC of TIMESTAMP.BODY."""
    timestamp = headers.get("X-Autograph-Timestamp", "")
    signature = headers.get("X-Autograph-Signature", "")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > MAX_SKEW:
        return False
    expected = hmac.new(options.secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest("sha256=" + expected, signature)


def answer(question):
    name = question.get("decision")
    if name == "willStartSigning":
        return {"answer": True, "configuration": {"capture": {"displayText": DISPLAY_TEXT}}}
    if name == "signingProcessStarted":
        return {"answer": []}
    if name == "willConfirmSigning":
        with lock:
            earlier = sum(1 for q in recorded if q.get("decision") == "willConfirmSigning")
        return {"answer": earlier > 1}
    if name in ("backButtonPressed", "viewerRectCancelled"):
        return {}
    return {"answer": True}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def reply(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        if self.path != "/recorded":
            return self.reply(404, {"error": "no such route"})
        with lock:
            self.reply(200, {"questions": recorded, "refused": refused})

    def do_POST(self):
        global refused
        size = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(size) if size else b""
        if self.path != "/decisions":
            return self.reply(404, {"error": "no such route"})
        if self.headers.get("Content-Type") != "application/json" or not verify(self.headers, body):
            with lock:
                refused += 1
            return self.reply(401, {"error": "bad signature"})
        question = json.loads(body)
        with lock:
            recorded.append(question)
        if options.sleep:
            time.sleep(options.sleep)
        self.reply(200, answer(question))


def main():
    global options
    parser = argparse.ArgumentParser()
    parser.add_argument("--secret", required=True)
    parser.add_argument("--sleep", type=float, default=0)
    options = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()


if __name__ == "__main__":
    main()
