"""Helpers for the web viewer's browser tests: the server under test, Chromium through Selenium,
the API through urllib, screenshots and the oracles (pyHanko, pdfsig, pdftotext, pypdf)."""

import io
import json
import os
import pathlib
import subprocess
import time
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
TOKEN = urllib.parse.parse_qs(PARSED.query).get("token", [""])[0]


def new_driver(width=1280, height=900, mobile=False):
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--hide-scrollbars", "--disable-extensions"):
        options.add_argument(argument)
    if mobile:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2, "touch": True}})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    return driver


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
    try:
        return [entry["message"] for entry in driver.get_log("browser")]
    except Exception:  # noqa: BLE001
        return []


def shot(driver, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def open_viewer(driver, url=URL):
    driver.get(url)
    wait(driver, "document.body.dataset.ready === '1'", message="viewer ready")
    wait(driver, "document.querySelector('.page.loaded') !== null", message="first tile")


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
