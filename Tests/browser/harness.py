"""Helpers for the web viewer's browser tests: the server under test, Chromium through Selenium,
the API through urllib, screenshots and the oracles (pyHanko, pdfsig, pdftotext, pypdf)."""

import hashlib
import http.client
import io
import json
import os
import pathlib
import re
import sqlite3
import subprocess
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = pathlib.Path(__file__).resolve().parents[2]
URL = os.environ.get("AUTOGRAPH_URL", "")
STORE = pathlib.Path(os.environ.get("AUTOGRAPH_STORE", "/nonexistent"))
ARTIFACTS = pathlib.Path(os.environ.get("AUTOGRAPH_ARTIFACTS", ROOT / ".build" / "browser-artifacts"))
SERVER_LOG = pathlib.Path(os.environ.get("AUTOGRAPH_SERVER_LOG", "/nonexistent"))
PARSED = urllib.parse.urlparse(URL)
BASE = f"{PARSED.scheme}://{PARSED.netloc}"
# The API token the server printed: the bearer token of the API calls below. The browser never
# holds it: it opens one-use sign-in links (the server answers with a cookie and a redirect to /).
TOKEN = os.environ.get("AUTOGRAPH_TOKEN", "")

# The browsers open now, and every console message read from any of them, in order.
DRIVERS = []
CONSOLE = []


def new_driver(width=1280, height=900, mobile=False, profile=None, network=False, arguments=()):
    """Chromium, headless. `profile`: its --user-data-dir (else a temporary one chromedriver
    makes); `network`: keep the DevTools network events (`network(driver)`); `arguments`: more
    command-line switches."""
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--hide-scrollbars", "--disable-extensions",
                     *arguments):
        options.add_argument(argument)
    if profile:
        options.add_argument(f"--user-data-dir={profile}")
    if mobile:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2, "touch": True}})
    logs = {"browser": "ALL", **({"performance": "ALL"} if network else {})}
    options.set_capability("goog:loggingPrefs", logs)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    DRIVERS.append(driver)
    return driver


def close(driver):
    """Reads the console one last time (for the CSP check), then quits."""
    console(driver)
    if driver in DRIVERS:
        DRIVERS.remove(driver)
    driver.quit()


def api(method, path, body=None, token=TOKEN, raw=False, headers=None):
    """Calls the API; returns (status, parsed JSON or bytes)."""
    data = None
    all_headers = {"X-Autograph": "1", **dict(headers or {})}
    if token:
        all_headers["Authorization"] = "Bearer " + token
    if isinstance(body, (bytes, bytearray)):
        data = bytes(body)
        all_headers.setdefault("Content-Type", "application/octet-stream")
    elif body is not None:
        data = json.dumps(body).encode()
        all_headers["Content-Type"] = "application/json"
    request = urllib.request.Request(BASE + path, data=data, method=method, headers=all_headers)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            payload = response.read()
            status = response.status
            kind = response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as error:
        payload = error.read()
        status = error.code
        kind = error.headers.get("Content-Type", "")
    if raw or "json" not in kind:
        return status, payload
    return status, json.loads(payload or b"null")


def api_ok(method, path, body=None, **kwargs):
    status, payload = api(method, path, body, **kwargs)
    if status >= 300:
        raise AssertionError(f"{method} {path} → {status}: {payload!r}"[:500])
    return payload


def wait(driver, condition, timeout=30, message="condition", interval=0.1):
    """Waits until `condition(driver)` (or the JS expression `condition`) is truthy; returns it."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = driver.execute_script("return (" + condition + ");") if isinstance(condition, str) else condition(driver)
        except Exception as error:  # noqa: BLE001 — the page may be navigating
            last = error
        if last and not isinstance(last, Exception):
            return last
        time.sleep(interval)
    shot(driver, "timeout-" + "".join(c if c.isalnum() else "-" for c in message)[:60])
    raise AssertionError(f"timed out waiting for {message} (last: {last!r}); console: {console(driver)[-5:]}")


def console(driver):
    """The console messages since the last read (kept in CONSOLE too: reading empties the log)."""
    try:
        messages = [entry["message"] for entry in driver.get_log("browser")]
    except Exception:  # noqa: BLE001
        return []
    CONSOLE.extend(messages)
    return messages


# What Chromium writes to the console when the Content-Security-Policy blocks something: an inline
# script or style, a load, a connection, a frame ("Refused to …", "… violates the following Content
# Security Policy directive …").
CSP_MESSAGE = re.compile(r"Content[- ]Security[- ]Policy|Refused to (apply|execute|load|connect|frame|evaluate)",
                         re.IGNORECASE)


class BrowserTestCase(unittest.TestCase):
    """Fails a test when any browser open during it wrote a CSP violation to its console (except
    those in `expected_csp`, regular expressions), and keeps each test's console messages in
    ARTIFACTS/console-TEST.txt."""

    expected_csp = ()

    def setUp(self):
        for driver in list(DRIVERS):
            console(driver)
        self.console_start = len(CONSOLE)

    def tearDown(self):
        for driver in list(DRIVERS):
            console(driver)
        messages = CONSOLE[self.console_start:]
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / f"console-{self._testMethodName}.txt").write_text("\n".join(messages) + "\n")
        violations = [m for m in messages
                      if CSP_MESSAGE.search(m) and not any(re.search(p, m) for p in self.expected_csp)]
        if violations:
            self.fail("Content-Security-Policy violations in the console:\n" + "\n".join(violations))


def shot(driver, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def new_link():
    """A new one-use sign-in link (POST /api/links with the API token), as a full URL."""
    status, body = api("POST", "/api/links")
    if status != 201:
        raise AssertionError(f"POST /api/links answered {status}: {body}")
    return BASE + body["url"]


def open_viewer(driver, url=None):
    """Opens the viewer: a new sign-in link (the server sets the cookie and redirects to /), or `url`."""
    driver.get(url or new_link())
    wait(driver, "document.body.dataset.ready === '1'", message="viewer ready")
    wait(driver, "document.querySelector('.page.loaded') !== null", message="first tile")
    if "login=" in driver.current_url or "token=" in driver.current_url:
        raise AssertionError(f"the link's code stayed in the address: {driver.current_url}")


def raw_request(method, path, headers=None, body=None):
    """One request as given, no redirect followed, no header added but Host, Accept-Encoding and
    Content-Length: (status, headers as a list of (name, value), body bytes)."""
    connection = http.client.HTTPConnection(PARSED.hostname, PARSED.port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=dict(headers or {}))
        response = connection.getresponse()
        return response.status, response.getheaders(), response.read()
    finally:
        connection.close()


def network(driver):
    """The requests the browser sent since the last call, from the DevTools network events:
    [{"url", "method", "type", "headers" (as sent, with Cookie), "status" (as the server answered,
    also when the page may not see it), "failed" (net error), "blocked" (why the browser blocked
    the answer), "cors" (the CORS error)}], in the order sent. A redirect's hops are requests of
    their own; the raw headers of one hop may arrive after the next began and land on it."""
    requests = {}
    order = []
    current = {}  # DevTools request ID → key of its latest hop (a redirect keeps the ID)
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        method, params = message["method"], message.get("params", {})
        if "requestId" not in params or not method.startswith("Network."):
            continue
        key = current.get(params["requestId"])
        if method == "Network.requestWillBeSent" and (key is None or params.get("redirectResponse")):
            if key is not None:
                redirect = params["redirectResponse"]
                requests[key]["status"] = redirect["status"]
                requests[key]["response_headers"].update({k.lower(): v for k, v in redirect["headers"].items()})
            key = current[params["requestId"]] = f"{params['requestId']}.{len(order)}"
        elif key is None:
            key = current[params["requestId"]] = f"{params['requestId']}.{len(order)}"
        if key not in requests:
            requests[key] = {"url": None, "method": None, "type": None, "headers": {}, "status": None,
                             "response_headers": {}, "failed": None, "blocked": None, "cors": None}
            order.append(key)
        record = requests[key]
        if method == "Network.requestWillBeSent":
            record.update(url=params["request"]["url"], method=params["request"]["method"], type=params.get("type"))
        elif method == "Network.requestWillBeSentExtraInfo":
            record["headers"].update({k.lower(): v for k, v in params.get("headers", {}).items()})
        elif method == "Network.responseReceivedExtraInfo":
            record["status"] = params.get("statusCode", record["status"])
            record["response_headers"].update({k.lower(): v for k, v in params.get("headers", {}).items()})
        elif method == "Network.responseReceived":
            record["status"] = record["status"] or params["response"].get("status")
        elif method == "Network.loadingFailed":
            record.update(failed=params.get("errorText"), blocked=params.get("blockedReason"),
                          cors=(params.get("corsErrorStatus") or {}).get("corsError"))
    return [requests[key] for key in order]


def store_digest():
    """A digest of every record of the server's store (read-only): any write changes it."""
    connection = sqlite3.connect(f"file:{STORE / 'store.sqlite'}?mode=ro", uri=True, timeout=30)
    try:
        digest = hashlib.sha256()
        for row in connection.execute("SELECT owner, document, kind, idx, value FROM records ORDER BY owner, document, kind, idx"):
            digest.update(repr(row[:4]).encode() + hashlib.sha256(bytes(row[4])).digest())
        return digest.hexdigest()
    finally:
        connection.close()


def demo_pdf():
    """The demo form's bytes: from the server while it still shows it, else as the first test kept it."""
    kept = ARTIFACTS / "00-demo-form.pdf"
    state = api_ok("GET", "/api/state")
    if state["documentID"] == "demo-form" and state["phase"] == "editing":
        save_artifact(kept.name, api("GET", "/api/download", raw=True)[1])
    return kept.read_bytes() if kept.exists() else None


def open_document(pdf, document_id):
    return api_ok("POST", "/api/documents", pdf, headers={"X-Document-ID": document_id,
                                                          "Content-Type": "application/pdf"})


def by_css(driver, selector):
    return driver.find_element(By.CSS_SELECTOR, selector)


def visible(driver, selector):
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); return !!e && e.getClientRects().length > 0;", selector)


def save_artifact(name, data):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    path.write_bytes(data)
    return path


def pyhanko_validate(path):
    """pyHanko's verdict: (returncode, output). Trusts the server's demo root when it wrote one."""
    arguments = ["pyhanko", "sign", "validate", "--no-strict-syntax"]
    root = STORE / "demo-root.pem"
    if root.exists():
        arguments += ["--trust", str(root), "--trust-replace"]
    result = subprocess.run(arguments + [str(path)], capture_output=True, text=True, timeout=120)
    pretty = subprocess.run(arguments + ["--pretty-print", str(path)], capture_output=True, text=True, timeout=120)
    return result.returncode, result.stdout + result.stderr + "\n" + pretty.stdout, root.exists()


def pdfsig(path):
    result = subprocess.run(["pdfsig", str(path)], capture_output=True, text=True, timeout=60)
    return result.returncode, result.stdout + result.stderr


def pdftotext(path):
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, timeout=60).stdout


def pdf_reader(data):
    import pypdf
    return pypdf.PdfReader(io.BytesIO(data))


def fieldless_pdf():
    """A two-page PDF with some text and no form (written by pypdf, not by us)."""
    import pypdf
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject
    writer = pypdf.PdfWriter()
    for number in (1, 2):
        page = writer.add_blank_page(width=595, height=842)
        font = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                                 NameObject("/BaseFont"): NameObject("/Helvetica")})
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})})
        content = DecodedStreamObject()
        content.set_data(f"BT /F1 24 Tf 72 760 Td (Contract page {number}) Tj ET".encode())
        page[NameObject("/Contents")] = writer._add_object(content)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
