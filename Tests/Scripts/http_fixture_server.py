#!/usr/bin/env python3
"""A small HTTP server on loopback for the HTTP client's tests (Tests/HTTPClientTests).

Prints `PORT n` on its first line once it listens, and exits when its standard input closes (the
test that started it has ended or stopped it). Routes:
  GET  /hello                  200 "hello", with `X-Fixture: yes`
  POST /echo (any method)      200 JSON: the method, the header fields and the body received
  GET  /slow?seconds=S         sleeps S seconds, then 200 "slow"
  GET  /big?bytes=N&length=0   N bytes of "x"; with length=0 no Content-Length (the body ends at close)
  GET  /status?code=N          status N, body "status N"
  GET  /redirect?to=URL        302 to URL (default /hello)
  GET  /count                  how many requests came before this one
"""
import json
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

count = 0
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def reply(self, status, body, headers=(), length=True):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

    def handle_any(self):
        global count
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        with lock:
            seen = count
            count += 1
        if url.path == "/hello":
            self.reply(200, b"hello", [("X-Fixture", "yes")])
        elif url.path == "/echo":
            size = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(size) if size else b""
            echo = {
                "method": self.command,
                "headers": [[k, v] for k, v in self.headers.items()],
                "body": body.decode("latin-1"),
            }
            self.reply(200, json.dumps(echo).encode(), [("Content-Type", "application/json")])
        elif url.path == "/slow":
            time.sleep(float(query.get("seconds", "5")))
            self.reply(200, b"slow")
        elif url.path == "/big":
            size = int(query.get("bytes", "0"))
            self.reply(200, b"x" * size, length=query.get("length", "1") != "0")
        elif url.path == "/status":
            code = int(query.get("code", "200"))
            self.reply(code, f"status {code}".encode())
        elif url.path == "/redirect":
            self.reply(302, b"", [("Location", query.get("to", "/hello"))])
        elif url.path == "/count":
            self.reply(200, str(seen).encode())
        else:
            self.reply(404, b"no such route")

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = handle_any


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()


if __name__ == "__main__":
    main()
