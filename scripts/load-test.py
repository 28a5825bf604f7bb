#!/usr/bin/env python3
"""Load test of `autograph serve`: many clients of the web viewer's API at once.

Builds its inputs in a temporary directory: a 3-page form (page 1: text and two text fields,
"Name" and "Photo"; page 2: one content stream of about 2 million path operators, ~13 MB
before Flate; page 3: text) and a "photo bomb", a ~1 MB PNG whose IHDR declares 32767×32767
RGBA pixels (a valid zlib stream of ~1 GB of zeros: the rows stop long before the height).
Starts `AUTOGRAPH serve FORM --port 0 --host 127.0.0.1 --store TMP/store`, reads the URL it
prints, and runs N client threads for S seconds, each on a connection of its own (opened again
whenever the server closes it: it answers every request with `Connection: close`):
mostly tiles of random pages, scales and regions of the light pages (70 %), and API calls
(state, pages, fields, layout, page, a field value PUT, search); a few clients (clients / 16)
ask only for tiles of the heavy page; one client only uploads the photo bomb to the photo field,
at 30 % and 65 % of the run. Each request has a timeout (30 s); no request starts after the
run's end, so the run takes at most S + timeout seconds, and stops early when the server dies.

Measures the latency of API calls (p50, p99, max) apart from tiles; for tiles the max, the p99
and how many took over 5 s; the responses by status; errors other than refusals (a 4xx or 503
JSON error answer to a tile or to the bomb is a refusal: expected; connection errors,
timeouts, 5xx other than 503, bodies that are not PNG or JSON are errors); the server's peak
RSS (VmRSS sampled every 0.5 s, and VmHWM at the end); and whether the server still runs and
answers at the end. Prints a table and one verdict per target:

    API p99 ≤ 50 ms; no tile request over 5 s; peak RSS < 1 GiB; no error but refusals; server alive

With --attack MODE[,MODE…] attackers run beside the clients for the whole run, COUNT connections
of each MODE (--attack-count, 300) from another address (--attack-source, 127.0.0.2: Linux routes
all of 127.0.0.0/8 to the loopback interface), each opened again half a second after the server
closes it — the modes of Tests/Scripts/connection_attack.py: `idle` (connects, sends nothing),
`slowloris` (a request head one byte a second, header lines that never end), `events-anon`
(`GET /api/events` without a credential, kept open), `events-token` (event streams with the
token). One more verdict then: the clients' `GET /api/state` p99 ≤ 1 s under attack.

Exits 0 whichever the verdicts (a benchmark), 1 when they miss and --strict is given, 2 when
the harness cannot run (the server does not start, bad options).

    scripts/load-test.py [--autograph PATH] [--clients 50] [--seconds 60] [--quick] [--strict]
                         [--heavy-clients N] [--bombs 2] [--timeout 30] [--log FILE] [--keep]
                         [--attack slowloris,idle [--attack-count 300] [--attack-source 127.0.0.2]]

Only the Python standard library; all traffic goes to 127.0.0.1.
"""
import argparse
import http.client
import importlib.util
import json
import math
import os
import random
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

API_P99_TARGET = 0.050
ATTACKED_STATE_P99_TARGET = 1.0
ATTACK_MODES = ("idle", "slowloris", "events-anon", "events-token")
ATTACK_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Scripts",
                             "connection_attack.py")
TILE_MAX_TARGET = 5.0
RSS_TARGET = 1024 * 1024 * 1024
HEAVY_PAGE = 1  # 0-based: the page with the 2 million path operators
LIGHT_PAGES = (0, 2)
URL_PATTERN = re.compile(r"open (http://127\.0\.0\.1:(\d+)/\?login=[0-9A-Fa-f]+)")
TOKEN_PATTERN = re.compile(r"API token .* is ([0-9A-Fa-f]{64})")
MAX_REQUESTS_PER_CLIENT = 1_000_000  # a bound beside the deadline


# ---------------------------------------------------------------------------------------------
# Inputs

def write_pdf(path, operators, seed):
    """Writes the 3-page form; answers (operators, raw content bytes, Flate bytes) of page 2."""
    light_text = [
        "BT /F1 20 Tf 72 770 Td (Autograph load test form) Tj ET",
        "BT /F1 11 Tf 72 740 Td (Name of the person who signs:) Tj ET",
        "BT /F1 11 Tf 72 560 Td (Photo of the person:) Tj ET",
        "0.2 0.3 0.6 RG 2 w 72 700 m 523 700 l S",
        "0.9 0.9 0.95 rg 72 300 451 120 re f",
    ]
    lorem = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
             "incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud "
             "exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.").split()
    y = 280
    line = []
    for word in lorem * 6:
        line.append(word)
        if len(line) == 11:
            light_text.append("BT /F1 10 Tf 72 %d Td (%s) Tj ET" % (y, " ".join(line)))
            y -= 14
            line = []
    page1 = "\n".join(light_text).encode()
    page3 = ("BT /F1 18 Tf 72 770 Td (Terms of the load test) Tj ET\n"
             + "\n".join("BT /F1 10 Tf 72 %d Td (Clause %d: the signer agrees to clause %d.) Tj ET"
                         % (740 - 14 * i, i + 1, i + 2) for i in range(40))).encode()

    # Page 2: about `operators` path operators in the page's one content stream: short stroked
    # segments (x y m x y l S: 3 operators) and filled rectangles (x y w h re f: 2).
    rng = random.Random(seed)
    rand = rng.random
    lines = ["0.3 w 0.1 0.2 0.5 RG 0.6 0.2 0.2 rg"]
    count = 0
    while count < operators:
        if rand() < 0.75:
            x, y = int(rand() * 590), int(rand() * 836)
            lines.append("%d %d m %d %d l S" % (x, y, x + int(rand() * 12), y + int(rand() * 12)))
            count += 3
        else:
            lines.append("%d %d %d %d re f" % (int(rand() * 590), int(rand() * 836),
                                               1 + int(rand() * 4), 1 + int(rand() * 4)))
            count += 2
    heavy = ("\n".join(lines) + "\n").encode()
    heavy_flate = zlib.compress(heavy, 6)

    def stream(data, flate):
        if flate:
            data = zlib.compress(data, 6)
            return b"<</Length %d/Filter/FlateDecode>>\nstream\n" % len(data) + data + b"\nendstream"
        return b"<</Length %d>>\nstream\n" % len(data) + data + b"\nendstream"

    font = b"<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding>>"
    resources = b"<</Font<</F1 9 0 R>>>>"
    objects = {
        1: b"<</Type/Catalog/Pages 2 0 R/AcroForm<</Fields[7 0 R 8 0 R]/DA(/Helv 11 Tf 0 g)"
           b"/DR<</Font<</Helv 9 0 R>>>>>>>>",
        2: b"<</Type/Pages/Kids[3 0 R 4 0 R 5 0 R]/Count 3>>",
        3: b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 6 0 R/Resources "
           + resources + b"/Annots[7 0 R 8 0 R]>>",
        4: b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 10 0 R/Resources "
           + resources + b">>",
        5: b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 11 0 R/Resources "
           + resources + b">>",
        6: stream(page1, True),
        7: b"<</Type/Annot/Subtype/Widget/FT/Tx/T(Name)/Rect[72 710 400 734]/P 3 0 R"
           b"/DA(/Helv 11 Tf 0 g)/F 4>>",
        8: b"<</Type/Annot/Subtype/Widget/FT/Tx/T(Photo)/Rect[72 430 272 550]/P 3 0 R"
           b"/DA(/Helv 11 Tf 0 g)/F 4>>",
        9: font,
        10: b"<</Length %d/Filter/FlateDecode>>\nstream\n" % len(heavy_flate) + heavy_flate
            + b"\nendstream",
        11: stream(page3, True),
    }
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n"
    xref = len(out)
    size = max(objects) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for number in range(1, size):
        out += b"%010d 00000 n \n" % offsets[number]
    out += b"trailer\n<</Size %d/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    with open(path, "wb") as file:
        file.write(out)
    return count, len(heavy), len(heavy_flate)


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def write_png_bomb(path, size=1 << 20, side=32767):
    """A PNG declaring side×side RGBA pixels whose IDAT is a valid zlib stream of zeros, about
    `size` bytes long (~1000 times as many zeros): the image data ends long before its last row."""
    compressor = zlib.compressobj(9)
    zeros = bytes(1 << 20)
    parts, written, inflated = [], 0, 0
    for _ in range(8192):  # bounded: ~1 KB of output per MB of zeros
        if written >= size:
            break
        piece = compressor.compress(zeros)
        inflated += len(zeros)
        parts.append(piece)
        written += len(piece)
    parts.append(compressor.flush())
    data = b"".join(parts)
    png = bytearray(b"\x89PNG\r\n\x1a\n")
    png += png_chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0))
    for start in range(0, len(data), 1 << 16):
        png += png_chunk(b"IDAT", data[start:start + (1 << 16)])
    png += png_chunk(b"IEND", b"")
    with open(path, "wb") as file:
        file.write(png)
    return len(png), inflated


# ---------------------------------------------------------------------------------------------
# The server

class Server:
    """`autograph serve` as a child: its output copied to a log, its URL parsed, its memory
    sampled every 0.5 s, its end noticed."""

    def __init__(self, autograph, pdf, store, log_path):
        self.log = open(log_path, "w", encoding="utf-8", errors="replace")
        self.process = subprocess.Popen(
            [autograph, "serve", pdf, "--port", "0", "--host", "127.0.0.1", "--store", store],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
        self.pid = self.process.pid
        self.ready = threading.Event()
        self.port = self.token = None
        self.rss_samples = []  # (seconds since start, VmRSS bytes)
        self.died_at = None
        self.started = time.monotonic()
        self.stop_sampling = threading.Event()
        self.dead = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def wait_ready(self, start_timeout=60):
        """Waits for the URL; raises RuntimeError (the server stopped) when none comes."""
        self.ready.wait(start_timeout)
        if self.port is None or self.token is None:
            code = self.process.poll()
            self.stop()
            raise RuntimeError("autograph serve printed no URL within %d s (%s)" % (
                start_timeout, "exit code %s" % code if code is not None else "still running"))
        self.sampler = threading.Thread(target=self._sample, daemon=True)
        self.sampler.start()

    def _read(self):
        for raw in iter(self.process.stdout.readline, b""):
            line = raw.decode("utf-8", "replace")
            self.log.write("%8.3f %s" % (time.monotonic() - self.started, line))
            self.log.flush()
            match = URL_PATTERN.search(line)
            if match and self.port is None:
                self.port = int(match.group(2))
            match = TOKEN_PATTERN.search(line)
            if match and self.token is None:
                self.token = match.group(1)
            if self.port is not None and self.token is not None:
                self.ready.set()
        self.ready.set()

    def status(self):
        """{field: bytes} of /proc/PID/status's memory lines, or None once the process is gone."""
        try:
            with open("/proc/%d/status" % self.pid, encoding="ascii", errors="replace") as file:
                text = file.read()
        except OSError:
            return None
        values = {}
        for line in text.splitlines():
            name, _, rest = line.partition(":")
            if name.startswith("Vm") or name.startswith("Rss") or name == "State":
                parts = rest.split()
                values[name] = int(parts[0]) * 1024 if parts and parts[0].isdigit() else rest.strip()
        return values

    def cpu_seconds(self):
        try:
            with open("/proc/%d/stat" % self.pid, encoding="ascii") as file:
                fields = file.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return None

    def alive(self):
        if self.process.poll() is not None:
            return False
        status = self.status()
        return status is not None and not str(status.get("State", "")).startswith("Z")

    def _sample(self):
        for _ in range(1_000_000):
            if not self.alive():
                if self.died_at is None:
                    self.died_at = time.monotonic()
                self.dead.set()
                return
            status = self.status()
            if status and isinstance(status.get("VmRSS"), int):
                self.rss_samples.append((time.monotonic(), status["VmRSS"]))
            if self.stop_sampling.wait(0.5):
                return

    def stop(self):
        """SIGTERM, then SIGKILL after 10 s; answers how it ended."""
        self.stop_sampling.set()
        how = None
        if self.process.poll() is None:
            started = time.monotonic()
            try:
                self.process.send_signal(signal.SIGTERM)
                self.process.wait(10)
                how = "stopped by SIGTERM in %.1f s" % (time.monotonic() - started)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
                how = "did not stop within 10 s of SIGTERM: killed (SIGKILL)"
        self.reader.join(5)
        self.log.close()
        return how

    def exit_description(self):
        code = self.process.returncode
        if code is None:
            return "running"
        if code < 0:
            try:
                return "ended by signal %s" % signal.Signals(-code).name
            except ValueError:
                return "ended by signal %d" % -code
        return "exited with code %d" % code


# ---------------------------------------------------------------------------------------------
# Clients

class Result:
    __slots__ = ("kind", "route", "status", "outcome", "latency", "started", "detail")

    def __init__(self, kind, route, status, outcome, latency, started, detail=""):
        self.kind, self.route, self.status, self.outcome = kind, route, status, outcome
        self.latency, self.started, self.detail = latency, started, detail


class Client(threading.Thread):
    def __init__(self, index, role, run, seed):
        super().__init__(name="client-%d" % index, daemon=True)
        self.index, self.role, self.run_ = index, role, run
        self.rng = random.Random(seed * 1000 + index)
        self.results = []
        self.connection = None
        self.bombs_due = list(run.bomb_times) if role == "bomb" else []

    def request(self, kind, route, method, path, body=None, content_type=None):
        run = self.run_
        headers = {"Authorization": "Bearer " + run.token, "X-Autograph": "1"}
        if body is not None:
            headers["Content-Type"] = content_type or "application/json"
        started = time.monotonic()
        status, outcome, detail, data = None, "error", "", b""
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", run.port, timeout=run.timeout)
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            data = response.read()
            status = response.status
            content = response.getheader("Content-Type", "")
            if response.will_close:
                self.connection.close()
                self.connection = None
            outcome, detail = classify(kind, status, content, data)
        except (socket.timeout, TimeoutError):
            status, detail = "timeout", "no answer within %g s" % run.timeout
            self.drop()
        except (ConnectionError, http.client.HTTPException, OSError) as error:
            status, detail = "connection", "%s: %s" % (type(error).__name__, error)
            self.drop()
        latency = time.monotonic() - started
        self.results.append(Result(kind, route, status, outcome, latency, started - run.started, detail))
        if status == "connection":
            run.stop.wait(0.2)  # the server may be gone: do not spin
        elif status in (429, 503):
            run.stop.wait(0.1)  # shed load: come back a little later, as a viewer would
        return status, data

    def drop(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def light_tile(self):
        page = self.rng.choice(LIGHT_PAGES)
        self.tile("tile", page, self.rng.choice((0.5, 1, 1.5, 2, 3, 4)))

    def tile(self, kind, page, scale):
        width, height = self.run_.page_sizes[page]
        pixels_w, pixels_h = int(width * scale), int(height * scale)
        path = "/api/pages/%d/tile?scale=%g" % (page, scale)
        if scale > 1.5 or self.rng.random() < 0.6:
            side = self.rng.choice((256, 512))
            x = self.rng.randrange(0, max(1, pixels_w - side // 2), 128)
            y = self.rng.randrange(0, max(1, pixels_h - side // 2), 128)
            path += "&x=%d&y=%d&w=%d&h=%d" % (x, y, side, side)
        self.request(kind, "tile", "GET", path)

    def api_call(self):
        rng, run = self.rng, self.run_
        choice = rng.choices(
            ("state", "pages", "fields", "layout", "page", "put", "search"), (6, 3, 5, 5, 4, 4, 3))[0]
        if choice == "state":
            self.request("api", "GET /api/state", "GET", "/api/state")
        elif choice == "pages":
            self.request("api", "GET /api/pages", "GET", "/api/pages")
        elif choice == "fields":
            self.request("api", "GET /api/fields", "GET", "/api/fields")
        elif choice == "layout":
            self.request("api", "GET /api/layout", "GET", "/api/layout?width=%d&height=%d" % (
                rng.choice((800, 1024, 1280)), rng.choice((600, 768, 900))))
        elif choice == "page":
            self.request("api", "POST /api/page", "POST", "/api/page",
                         json.dumps({"page": rng.randrange(run.page_count)}).encode())
        elif choice == "put":
            self.request("api", "PUT /api/fields/Name", "PUT", "/api/fields/Name",
                         json.dumps({"value": "client %d, request %d" % (self.index, len(self.results))}).encode())
        else:
            query = rng.choice(("load test", "Clause 17", "signer", "lorem", "nothing-like-this"))
            self.request("api", "GET /api/search", "GET", "/api/search?q=" + query.replace(" ", "%20"))

    def run(self):
        run = self.run_
        for _ in range(MAX_REQUESTS_PER_CLIENT):
            if time.monotonic() >= run.deadline or run.stop.is_set() or run.server.dead.is_set():
                break
            if self.role == "bomb":
                # This client only uploads the bomb, at its times, whatever the others wait for.
                if not self.bombs_due:
                    break
                wait = run.started + self.bombs_due[0] - time.monotonic()
                if wait > 0:
                    run.stop.wait(min(wait, 0.5))
                    continue
                self.bombs_due.pop(0)
                self.request("photo", "POST /api/photo/Photo (bomb)", "POST", "/api/photo/Photo",
                             run.bomb, "image/png")
            elif self.role == "heavy":
                self.tile("heavy tile", HEAVY_PAGE, self.rng.choice((0.25, 0.5, 1, 1.5, 2)))
            elif self.rng.random() < 0.7:
                self.light_tile()
            else:
                self.api_call()
        self.drop()


def classify(kind, status, content_type, data):
    """(outcome, detail) of an HTTP answer: ok, refused (expected) or error."""
    error = None
    if content_type.startswith("application/json") and not 200 <= status < 300:
        try:
            body = json.loads(data)
            if isinstance(body, dict) and "error" in body:
                error = body["error"]
        except ValueError:
            pass
    if 200 <= status < 300 or status == 304:
        if kind in ("tile", "heavy tile"):
            if status == 200 and not data.startswith(b"\x89PNG\r\n\x1a\n"):
                return "error", "a %d tile that is not a PNG (%s)" % (status, content_type)
            return "ok", ""
        try:
            json.loads(data)
        except ValueError:
            return "error", "a %d answer that is not JSON (%s)" % (status, content_type)
        return "ok", ""
    message = ""
    if error is not None:
        message = "%s: %s" % (error.get("code"), error.get("message")) if isinstance(error, dict) else str(error)
    if status in (429, 503) or (400 <= status < 500 and kind in ("tile", "heavy tile", "photo")):
        if error is not None:
            return "refused", message
        return "error", "a %d refusal that is not a JSON error" % status
    return "error", "HTTP %d %s" % (status, message or data[:120])


# ---------------------------------------------------------------------------------------------
# The run

class Run:
    """What the clients share: the server's port and token, the inputs, the clock, the stop."""


def api_get(run, path, timeout=10):
    connection = http.client.HTTPConnection("127.0.0.1", run.port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Authorization": "Bearer " + run.token, "X-Autograph": "1"})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def api_post(run, path, body, timeout=30):
    connection = http.client.HTTPConnection("127.0.0.1", run.port, timeout=timeout)
    try:
        connection.request("POST", path, body=body, headers={
            "Authorization": "Bearer " + run.token, "X-Autograph": "1", "Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def percentile(sorted_values, share):
    if not sorted_values:
        return None
    return sorted_values[max(0, math.ceil(share * len(sorted_values)) - 1)]


def duration(seconds):
    if seconds is None:
        return "-"
    if seconds < 1:
        return "%.1f ms" % (seconds * 1000)
    return "%.2f s" % seconds


def mib(value):
    return "-" if value is None else "%.0f MiB" % (value / 1048576)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_tool = ".build/release/autograph"
    parser.add_argument("--autograph", default=default_tool, help="the autograph binary (default %(default)s)")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--quick", action="store_true", help="10 clients for 10 s (a smoke run)")
    parser.add_argument("--heavy-clients", type=int, default=None,
                        help="clients asking only for tiles of the heavy page (default: clients / 16, at least 1)")
    parser.add_argument("--bombs", type=int, default=2, help="photo bomb uploads during the run (0–2)")
    parser.add_argument("--timeout", type=float, default=30, help="per-request timeout in seconds")
    parser.add_argument("--operators", type=int, default=2_000_000, help="path operators of the heavy page")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--log", help="keep the server's output in this file (default: in the temporary directory)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (inputs, store, log)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--attack", default="",
                        help="attackers beside the clients: a comma-separated list of " + ", ".join(ATTACK_MODES))
    parser.add_argument("--attack-count", type=int, default=300, help="connections of each attack mode")
    parser.add_argument("--attack-source", default="127.0.0.2", help="the attackers' address")
    options = parser.parse_args()
    options.attack = [mode for mode in options.attack.split(",") if mode]
    if any(mode not in ATTACK_MODES for mode in options.attack) or not 1 <= options.attack_count <= 5000:
        parser.error("--attack takes %s; --attack-count 1…5000" % ", ".join(ATTACK_MODES))
    if options.quick:
        options.clients, options.seconds = 10, 10
    if options.clients < 1 or not 1 <= options.seconds <= 3600 or not 1 <= options.timeout <= 300:
        parser.error("--clients ≥ 1, --seconds 1…3600 and --timeout 1…300")
    if options.heavy_clients is None:
        options.heavy_clients = max(1, options.clients // 16) if options.clients > 2 else 0
    options.heavy_clients = min(options.heavy_clients, options.clients - 1)
    options.bombs = max(0, min(options.bombs, 2))
    autograph = os.path.abspath(options.autograph)
    if not os.access(autograph, os.X_OK):
        print("load test: no executable autograph at %s (make release)" % autograph, file=sys.stderr)
        return 2

    workdir = tempfile.mkdtemp(prefix="autograph-load-")
    running = {}  # "server": the Server while it may run, so that every way out stops it

    def on_signal(_number, _frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    try:
        return run_test(options, autograph, workdir, running)
    except KeyboardInterrupt:
        print("load test: interrupted", file=sys.stderr)
        return 130
    finally:
        server = running.pop("server", None)
        if server is not None and server.process.poll() is None:
            server.stop()
        if options.keep:
            print("load test: inputs, store and log kept in %s" % workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def run_test(options, autograph, workdir, running):
    pdf = os.path.join(workdir, "load-form.pdf")
    bomb_path = os.path.join(workdir, "photo-bomb.png")
    made = time.monotonic()
    operators, heavy_raw, heavy_flate = write_pdf(pdf, options.operators, options.seed)
    bomb_size, bomb_inflated = write_png_bomb(bomb_path)
    print("autograph serve load test: %d clients (%d on the heavy page) for %g s; %s" % (
        options.clients, options.heavy_clients, options.seconds, autograph))
    print("inputs (%.1f s to make): %s, 3 pages, %.1f MB; page 2: %d path operators, %.1f MB content "
          "stream (%.1f MB Flate)" % (time.monotonic() - made, os.path.basename(pdf), os.path.getsize(pdf) / 1e6,
                                      operators, heavy_raw / 1e6, heavy_flate / 1e6))
    print("        %s, %.2f MB, IHDR 32767×32767 RGBA (%.0f GB decoded), IDAT %.0f MB of zeros" % (
        os.path.basename(bomb_path), bomb_size / 1e6, 32767 * (1 + 4 * 32767) / 1e9, bomb_inflated / 1e6))

    log_path = os.path.abspath(options.log) if options.log else os.path.join(workdir, "serve.log")
    if os.path.dirname(log_path):
        os.makedirs(os.path.dirname(log_path), exist_ok=True)
    server = Server(autograph, pdf, os.path.join(workdir, "store"), log_path)
    running["server"] = server
    try:
        server.wait_ready()
    except RuntimeError as error:
        print("load test: %s; its output:" % error, file=sys.stderr)
        with open(log_path, encoding="utf-8", errors="replace") as log:
            sys.stderr.write(log.read()[-4000:])
        return 2
    print("server: pid %d, port %d, log %s" % (server.pid, server.port, log_path))

    run = Run()
    run.port, run.token, run.timeout, run.server = server.port, server.token, options.timeout, server
    with open(bomb_path, "rb") as file:
        run.bomb = file.read()
    status, body = api_get(run, "/api/pages")
    if status != 200:
        print("load test: GET /api/pages answered %d: %s" % (status, body[:300]), file=sys.stderr)
        return 2
    pages = json.loads(body)
    run.page_count = len(pages)
    run.page_sizes = [(page["width"], page["height"]) for page in pages]
    if run.page_count != 3:
        print("load test: the server sees %d pages, not 3" % run.page_count, file=sys.stderr)
        return 2
    status, body = api_get(run, "/api/fields")
    names = [field.get("name") for field in json.loads(body)] if status == 200 else []
    if "Name" not in names or "Photo" not in names:
        print("load test: GET /api/fields answered %d, fields %s" % (status, names), file=sys.stderr)
        return 2
    setup_notes = []
    run.bomb_times = []
    if options.bombs:
        status, body = api_post(run, "/api/photo-fields", json.dumps({"names": ["Photo"]}).encode())
        if status == 200:
            run.bomb_times = [options.seconds * share for share in ((0.3, 0.65) if options.bombs == 2 else (0.4,))]
        else:
            setup_notes.append("POST /api/photo-fields answered %d (%s): no bomb uploaded" % (status, body[:200]))
    rss_before = (server.status() or {}).get("VmRSS")
    cpu_before = server.cpu_seconds()

    run.stop = threading.Event()
    run.started = time.monotonic()
    run.deadline = run.started + options.seconds
    roles = ["heavy"] * options.heavy_clients
    roles += ["bomb" if run.bomb_times else "light"] + ["light"] * (options.clients - len(roles) - 1)
    clients = [Client(index, role, run, options.seed) for index, role in enumerate(roles)]
    attacks = []
    if options.attack:
        specification = importlib.util.spec_from_file_location("connection_attack", ATTACK_SCRIPT)
        module = importlib.util.module_from_spec(specification)
        specification.loader.exec_module(module)
        attacks = [module.Attack(run.port, mode, options.attack_count, options.attack_source, run.token).start()
                   for mode in options.attack]
        print("attack: %s, %d connections each from %s" % (
            ", ".join(options.attack), options.attack_count, options.attack_source))
    client_cpu = os.times()
    for client in clients:
        client.start()
    progress_every = 10 if options.seconds >= 30 else max(1, options.seconds / 2)
    next_progress = run.started + progress_every
    limit = run.deadline + options.timeout + 15
    for _ in range(100_000):  # bounded: wait for the clients, printing progress
        alive_clients = [client for client in clients if client.is_alive()]
        now = time.monotonic()
        if not alive_clients or now >= limit:
            break
        if now >= next_progress:
            done = sum(len(client.results) for client in clients)
            rss = server.rss_samples[-1][1] if server.rss_samples else None
            print("  %3.0f s: %d requests, server RSS %s%s" % (
                now - run.started, done, mib(rss), "" if server.alive() else ", server gone: " + server.exit_description()),
                flush=True)
            next_progress += progress_every
        time.sleep(0.2)
    run.stop.set()
    for client in clients:
        client.join(max(0.1, limit - time.monotonic()))
    for attack in attacks:
        attack.stop()
    run.attack_stats = [(attack.mode, attack.stats()) for attack in attacks]
    stuck = [client.name for client in clients if client.is_alive()]
    elapsed = time.monotonic() - run.started
    client_cpu = sum(os.times()[:2]) - sum(client_cpu[:2])

    # The end: does the server still answer? Its memory high-water mark, then stop it.
    probe = None
    if server.alive():
        probe_started = time.monotonic()
        try:
            status, _ = api_get(run, "/api/state", timeout=10)
            probe = (status == 200, "answered GET /api/state (%d) in %s" % (status, duration(time.monotonic() - probe_started)))
        except (OSError, http.client.HTTPException) as error:
            probe = (False, "did not answer GET /api/state within 10 s (%s)" % type(error).__name__)
    final_status = server.status() or {}
    cpu_after = server.cpu_seconds()
    alive_at_end = server.alive()
    died_at = server.died_at
    stopped = server.stop()
    running.pop("server", None)

    results = [result for client in clients for result in client.results]
    return report(options, run, server, results, elapsed, stuck, probe, final_status, alive_at_end, died_at,
                  stopped, rss_before, cpu_before, cpu_after, client_cpu, setup_notes, log_path)


def report(options, run, server, results, elapsed, stuck, probe, final_status, alive_at_end, died_at, stopped,
           rss_before, cpu_before, cpu_after, client_cpu, setup_notes, log_path):
    print()
    print("%-34s %7s %6s %7s %6s %9s %9s %9s %9s %6s" % (
        "requests", "count", "ok", "refused", "errors", "per s", "p50", "p99", "max", ">5 s"))
    groups = [("API calls", lambda r: r.kind == "api"),
              ("tiles, light pages", lambda r: r.kind == "tile"),
              ("tiles, heavy page", lambda r: r.kind == "heavy tile"),
              ("tiles, all", lambda r: r.kind in ("tile", "heavy tile")),
              ("photo bomb uploads", lambda r: r.kind == "photo")]
    routes = sorted({r.route for r in results if r.kind == "api"})
    stats = {}

    def row(label, chosen, indent=""):
        latencies = sorted(r.latency for r in chosen)
        over = sum(1 for r in chosen if r.latency > TILE_MAX_TARGET)
        count = len(chosen)
        values = {
            "count": count, "p99": percentile(latencies, 0.99), "max": latencies[-1] if latencies else None,
            "over": over, "errors": sum(1 for r in chosen if r.outcome == "error"),
        }
        print("%-34s %7d %6d %7d %6d %9.1f %9s %9s %9s %6d" % (
            indent + label, count, sum(1 for r in chosen if r.outcome == "ok"),
            sum(1 for r in chosen if r.outcome == "refused"), values["errors"], count / elapsed if elapsed else 0,
            duration(percentile(latencies, 0.5)), duration(values["p99"]), duration(values["max"]), over))
        return values

    for label, test in groups:
        chosen = [r for r in results if test(r)]
        stats[label] = row(label, chosen)
        if label == "API calls":
            for route in routes:
                row(route, [r for r in chosen if r.route == route], "  ")
    total = row("all", results)

    by_status = {}
    for result in results:
        by_status[str(result.status)] = by_status.get(str(result.status), 0) + 1
    print("responses by status: " + ", ".join("%s %d" % item for item in sorted(by_status.items())))

    slow_tiles = [r for r in results if r.kind in ("tile", "heavy tile") and r.latency > TILE_MAX_TARGET]
    if slow_tiles:
        heavy = sum(1 for r in slow_tiles if r.kind == "heavy tile")
        print("tiles over 5 s: %d of the heavy page, %d of the light pages; the first began at %.1f s" % (
            heavy, len(slow_tiles) - heavy, min(r.started for r in slow_tiles)))
    for result in (r for r in results if r.kind == "photo"):
        print("photo bomb at %.1f s: %s after %s%s" % (
            result.started, result.status, duration(result.latency), ": " + result.detail if result.detail else ""))
    errors = [r for r in results if r.outcome == "error"]
    if errors:
        kinds = {}
        for result in errors:
            key = "%s → %s" % (result.route, result.detail or result.status)
            kinds.setdefault(key, []).append(result)
        print("errors (%d), by request and cause:" % len(errors))
        for key, items in sorted(kinds.items(), key=lambda item: -len(item[1]))[:12]:
            print("  %5d  %s (first at %.1f s)" % (len(items), key[:150], min(r.started for r in items)))
    refusals = {}
    for result in (r for r in results if r.outcome == "refused"):
        key = "%s %s → %s" % (result.route, result.status, result.detail)
        refusals[key] = refusals.get(key, 0) + 1
    for key, count in sorted(refusals.items(), key=lambda item: -item[1])[:6]:
        print("refused %5d  %s" % (count, key[:150]))

    # Memory: the samples every 0.5 s and the kernel's high-water mark.
    samples = server.rss_samples
    sampled_peak = max((value for _, value in samples), default=None)
    hwm = final_status.get("VmHWM") if isinstance(final_status.get("VmHWM"), int) else None
    peak = max(value for value in (sampled_peak, hwm) if value is not None) if (sampled_peak or hwm) else None
    timeline = []
    step = 10 if options.seconds >= 30 else 5
    mark = 0.0
    for when, value in samples:
        offset = when - run.started
        if offset >= mark:
            timeline.append("%.0f s %s" % (offset, mib(value)))
            mark = (math.floor(offset / step) + 1) * step
    print("server RSS: before the clients %s; peak sampled %s, VmHWM %s; %s" % (
        mib(rss_before), mib(sampled_peak), mib(hwm), ", ".join(timeline) if timeline else "no samples"))
    if cpu_before is not None and cpu_after is not None:
        print("CPU over the %.0f s: server %.1f s (%.2f cores), this client %.1f s (%.2f cores), of %d cores" % (
            elapsed, cpu_after - cpu_before, (cpu_after - cpu_before) / elapsed, client_cpu, client_cpu / elapsed,
            os.cpu_count() or 0))
    else:
        print("CPU over the %.0f s: this client %.1f s (%.2f cores)" % (elapsed, client_cpu, client_cpu / elapsed))
    if stuck:
        print("clients still waiting when the run was ended: %s" % ", ".join(stuck))
    if alive_at_end:
        state = "alive at the end; " + (probe[1] if probe else "not probed")
    else:
        state = "gone: %s%s" % (server.exit_description(),
                                " at %.1f s of the run" % (died_at - run.started) if died_at else "")
    if stopped:
        state += "; " + stopped
    print("server: " + state)
    for mode, figures in getattr(run, "attack_stats", []):
        print("attack %s: %d connections opened, %d closed by the server, %d open at the end" % (
            mode, figures["opened"], figures["closedByServer"], figures["openAtEnd"]))
    for note in setup_notes:
        print("note: " + note)
    if not alive_at_end or errors:
        try:
            with open(log_path, encoding="utf-8", errors="replace") as log:
                tail = log.read().splitlines()[-8:]
            print("server log (last lines of %s):" % log_path)
            for line in tail:
                print("  " + line[:200])
        except OSError:
            pass

    # Verdicts.
    api = stats["API calls"]
    tiles = stats["tiles, all"]
    server_ok = alive_at_end and probe is not None and probe[0]
    targets = [
        ("API p99 ≤ 50 ms", duration(api["p99"]) if api["count"] else "no API answers",
         api["count"] > 0 and api["p99"] <= API_P99_TARGET),
        ("no tile request over 5 s", "%d over, max %s" % (tiles["over"], duration(tiles["max"])),
         tiles["count"] > 0 and tiles["over"] == 0),
        ("peak RSS < 1 GiB", mib(peak), peak is not None and peak < RSS_TARGET),
        ("no error but refusals", "%d errors" % total["errors"], total["errors"] == 0),
        ("server alive at the end", "alive" if server_ok else ("not answering" if alive_at_end else "gone"),
         server_ok),
    ]
    if options.attack:
        state = sorted(r.latency for r in results if r.route == "GET /api/state")
        state_p99 = percentile(state, 0.99)
        targets.append(("under attack: state p99 ≤ 1 s", duration(state_p99) if state else "no answers",
                        bool(state) and state_p99 <= ATTACKED_STATE_P99_TARGET))
    print()
    for name, figure, met in targets:
        print("%-28s %-26s %s" % (name, figure, "ok" if met else "MISS  <--"))
    passed = sum(1 for *_, met in targets if met)
    print("load test: %d passed, %d failed" % (passed, len(targets) - passed))
    return 1 if options.strict and passed < len(targets) else 0


if __name__ == "__main__":
    sys.exit(main())
