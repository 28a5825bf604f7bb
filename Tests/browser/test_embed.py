"""Browser tests of embedding the viewer in a host page (docs/embedding.md).

The test runs a host page of its own on 127.0.0.1:HOST (Python's http.server: a page and a host
script that imports /embed/autograph-embed.js from the viewer's server) and its own
`autograph serve --port 0 --embed-origin http://127.0.0.1:HOST` (AUTOGRAPH_BINARY; a fresh store).
Another port of 127.0.0.1 is another origin of the same site, so the sign-in link's SameSite=Strict
cookie works inside the frame. The host script answers decisions as `window.policy` says and logs
every event, notification and decision in `window.log`.

What it shows, with oracles we did not write (pdfsig, pdftotext) and the server's API:
willConfirmSigning false leaves the document unsigned and true signs it; a displayText set inside
willStartSigning is in the capture dialog and in the signed appearance; acceptsInput false stops
scrolling and field focus and true restores them (enableTouchEvents), allowsRotation false asks
for an orientation lock (enableAutoRotation); the Signature fields, Back, Save and viewer-rectangle
buttons ask the host; another origin cannot frame the viewer, and messages from a wrong origin or
window are ignored on both sides."""

import html
import http.server
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import harness as H  # noqa: E402
from test_viewer import draw, signature_points  # noqa: E402

BINARY = os.environ.get("AUTOGRAPH_BINARY", "")
TEXT = "Approved through the ACME portal"

HOST_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Host page</title>
<style>body { margin: 0; font-family: sans-serif; } #viewer { width: 1000px; height: 760px; }</style>
<script type="module" src="/host.js"></script></head>
<body><main><h1>Host page</h1><div id="viewer"></div><div id="extra"></div></main></body>
</html>
"""

# The host script: every event, notification and decision in `log`; each decision answered as
# `policy[name]` says ({configure, answer}; none: the handler returns undefined, so the server
# applies the seed's default).
HOST_SCRIPT = """
import { AutographViewer, DECISIONS, EVENTS, NOTIFICATIONS } from '%(viewer)s/embed/autograph-embed.js';

window.log = [];
window.policy = {};
const config = await (await fetch('/config.json', { cache: 'no-store' })).json();
const viewer = AutographViewer.open(config.link, { container: document.getElementById('viewer'), title: 'Sign the form' });
window.viewer = viewer;
for (const name of EVENTS) viewer.on(name, (data) => { log.push({ kind: 'event', name, data }); });
for (const name of NOTIFICATIONS) viewer.on(name, (data) => { log.push({ kind: 'notification', name, data }); });
for (const name of DECISIONS) {
  viewer.on(name, async (args, info) => {
    log.push({ kind: 'decision', name, args, id: info.id });
    const rule = policy[name];
    if (rule === undefined) return undefined;
    if (rule.configure) await viewer.configure(rule.configure);
    return rule.answer;
  });
}
viewer.on('ready', () => { window.viewerReady = true; });
"""

# A page of another origin inside the host page: it writes to the viewer's frame and to the host
# as if it were the other one.
FORGER_SCRIPT = """
const viewerFrame = parent.frames[0];
const replies = [];
window.addEventListener('message', (event) => replies.push(event.data));
viewerFrame.postMessage({ autograph: 1, type: 'command', requestId: 9001, command: 'configure',
  args: { changes: { viewer: { showsToolbar: false } } } }, '*');
viewerFrame.postMessage({ autograph: 1, type: 'command', requestId: 9002, command: 'scrollToPage', args: { index: 0 } }, '*');
parent.postMessage({ autograph: 1, type: 'event', name: 'processDidFinish', data: { reason: 'forged' } }, '*');
parent.postMessage({ autograph: 1, type: 'decision', id: 'forged', decision: 'willConfirmSigning', arguments: { field: 'forged' } }, '*');
parent.postMessage({ autograph: 1, type: 'ready', state: { forged: true } }, '*');
setTimeout(() => parent.postMessage({ forgerDone: replies.length }, '*'), 1500);
"""


class Site:
    """An HTTP server on 127.0.0.1 serving `pages` (path → (content type, text or callable))."""

    def __init__(self):
        self.pages = {}
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                entry = owner.pages.get(self.path.split("?")[0])
                kind, body = entry if entry else ("text/plain", "not found")
                data = (body() if callable(body) else body).encode()
                self.send_response(200 if entry else 404)
                self.send_header("Content-Type", kind + "; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Server:
    """`autograph serve` (with an embedding origin, or `extra` arguments), a temporary store, its URL
    and API token."""

    def __init__(self, embed_origin=None, extra=(), name="embed"):
        self.work = pathlib.Path(tempfile.mkdtemp(prefix=f"autograph-{name}-"))
        self.log = H.ARTIFACTS / f"{name}-server.log"
        H.ARTIFACTS.mkdir(parents=True, exist_ok=True)
        arguments = [BINARY, "serve", "--port", "0", "--store", str(self.work / "store"), *extra]
        if embed_origin:
            arguments += ["--embed-origin", embed_origin, "--decision-timeout", "30"]
        if os.environ.get("AUTOGRAPH_WEB_ROOT"):
            arguments += ["--web-root", os.environ["AUTOGRAPH_WEB_ROOT"]]
        self.output = open(self.log, "w")
        self.process = subprocess.Popen(arguments, stdout=self.output, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        text = ""
        while time.monotonic() < deadline:
            text = self.log.read_text()
            url = re.search(r"http://[^ ]*login=[0-9a-fA-F]+", text)
            token = re.search(r"API token .* is ([0-9a-fA-F]+)", text)
            if url and token:
                self.base = url.group(0).split("/?")[0]
                self.token = token.group(1)
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        self.close()
        raise AssertionError("autograph serve printed no link:\n" + text)

    def api(self, method, path, body=None, raw=False, headers=None):
        """Calls the API with the bearer token: (status, JSON or bytes)."""
        all_headers = {"X-Autograph": "1", "Authorization": "Bearer " + self.token, **(headers or {})}
        data = None
        if isinstance(body, bytes):
            data = body
        elif body is not None:
            data = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=all_headers)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                status, payload, kind = response.status, response.read(), response.headers.get("Content-Type", "")
        except urllib.error.HTTPError as error:
            status, payload, kind = error.code, error.read(), error.headers.get("Content-Type", "")
        if raw or "json" not in kind:
            return status, payload
        return status, json.loads(payload or b"null")

    def ok(self, method, path, body=None, **kwargs):
        status, payload = self.api(method, path, body, **kwargs)
        if status >= 300:
            raise AssertionError(f"{method} {path} → {status}: {payload!r}"[:500])
        return payload

    def link(self):
        return self.base + self.ok("POST", "/api/links")["url"]

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.output.close()
        shutil.rmtree(self.work, ignore_errors=True)


class EmbedTests(H.BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        if not BINARY:
            raise unittest.SkipTest("AUTOGRAPH_BINARY is not set: run scripts/browser-tests")
        cls.host = Site()
        cls.other = Site()
        cls.server = Server(cls.host.origin)
        cls.host.pages = {
            "/": ("text/html", HOST_PAGE),
            "/host.js": ("text/javascript", HOST_SCRIPT % {"viewer": cls.server.base}),
            # What a host's backend does: a new sign-in link for each page it serves.
            "/config.json": ("application/json", lambda: json.dumps({"link": cls.server.link()})),
            "/sibling.html": ("text/html", '<!doctype html><title>Sibling</title><script src="/sibling.js"></script>'),
            "/sibling.js": ("text/javascript", FORGER_SCRIPT),
        }
        cls.other.pages = {
            "/forger.html": ("text/html", '<!doctype html><title>Forger</title><script src="/forger.js"></script>'),
            "/forger.js": ("text/javascript", FORGER_SCRIPT),
            "/frame.html": ("text/html", lambda: '<!doctype html><title>Other</title><iframe id="viewer" title="Viewer" '
                            f'src="{html.escape(cls.server.link())}" width="800" height="600"></iframe>'),
        }
        status, cls.demo = cls.server.api("GET", "/api/download", raw=True)
        assert status == 200 and cls.demo.startswith(b"%PDF-"), status
        cls.driver = H.new_driver(1280, 900)

    @classmethod
    def tearDownClass(cls):
        H.close(cls.driver)
        cls.server.close()
        cls.host.close()
        cls.other.close()

    # ── Helpers ─────────────────────────────────────────────────────────────────────────────

    def fresh_document(self, name):
        """The demo form as a new document, its required fields filled through the API."""
        self.server.ok("POST", "/api/documents", self.demo,
                       headers={"X-Document-ID": f"{name}-{time.monotonic_ns()}", "Content-Type": "application/pdf"})
        self.server.ok("PUT", "/api/fields/Name", {"value": "Grace Hopper"})
        self.server.ok("PUT", "/api/fields/Agree", {"value": True})

    def open_host(self):
        d = self.driver
        d.switch_to.default_content()
        d.get(self.host.origin + "/")
        H.wait(d, "window.viewerReady === true", timeout=60, message="embedded viewer ready")
        self.frame()
        H.wait(d, "document.querySelector('.page.loaded') !== null", message="first tile in the frame")
        H.wait(d, "document.body.dataset.connected === '1'", message="event stream in the frame")
        d.switch_to.default_content()

    def frame(self):
        self.driver.switch_to.default_content()
        self.driver.switch_to.frame(self.driver.find_element(By.CSS_SELECTOR, "#viewer iframe"))

    def host_js(self, script, *arguments):
        """Runs `script` in the host page (async: the last argument is the callback)."""
        self.driver.switch_to.default_content()
        return self.driver.execute_async_script(script, *arguments)

    def log(self, kind=None, name=None):
        self.driver.switch_to.default_content()
        entries = self.driver.execute_script("return window.log")
        return [e for e in entries if (kind is None or e["kind"] == kind) and (name is None or e["name"] == name)]

    def wait_log(self, kind, name, count=1, timeout=60):
        H.wait(self.driver, lambda d: len(self.log(kind, name)) >= count, timeout=timeout, message=f"{kind} {name}")
        return self.log(kind, name)

    def set_policy(self, name, rule):
        self.driver.switch_to.default_content()
        self.driver.execute_script("window.policy[arguments[0]] = arguments[1];", name, rule)

    def configure(self, changes):
        return self.host_js("viewer.configure(arguments[0]).then(arguments[1], (e) => arguments[1]({error: e.message}))",
                            changes)

    def capture_and_confirm(self):
        """In the frame: the capture dialog, a drawn signature, Confirm."""
        d = self.driver
        H.wait(d, lambda d: H.visible(d, "#capture-dialog"), timeout=60, message="capture dialog")
        pad = H.by_css(d, "#capture-dialog canvas")
        draw(d, pad, signature_points())
        draw(d, pad, [(-60, -40), (-20, 35), (30, -30), (70, 30)])
        H.by_css(d, '#capture-dialog [data-action="confirm"]').click()

    def signatures(self):
        return self.server.ok("GET", "/api/validation")["signatures"]

    def sign_in_frame(self, prefix):
        """Sign (signo's flow: willStartSigning … willConfirmSigning), the preview, Continue."""
        d = self.driver
        self.frame()
        H.by_css(d, "#tb-sign").click()
        self.capture_and_confirm()
        H.wait(d, lambda d: H.visible(d, "#preview-dialog"), timeout=90, message="preview dialog")
        H.wait(d, "document.querySelector('#preview-image').naturalWidth > 0", message="preview image")
        H.shot(d, prefix + "-preview")
        H.by_css(d, '#preview-dialog [data-action="confirm"]').click()
        H.wait(d, lambda d: H.visible(d, "#signed-dialog"), timeout=90, message="signed dialog")
        H.by_css(d, '#signed-dialog [data-action="continue"]').click()
        d.switch_to.default_content()

    def download(self, name):
        status, pdf = self.server.api("GET", "/api/download", raw=True)
        self.assertEqual(status, 200)
        return H.save_artifact(name, pdf)

    # ── Tests ───────────────────────────────────────────────────────────────────────────────

    def test_1_will_confirm_signing(self):
        """willConfirmSigning answered false leaves the document unsigned; true signs it."""
        d = self.driver
        self.fresh_document("confirm")
        self.open_host()
        self.set_policy("willConfirmSigning", {"answer": False})
        self.frame()
        H.by_css(d, "#tb-sign").click()
        self.capture_and_confirm()
        cancelled = self.wait_log("event", "signingProcessCancelled")
        decisions = self.log("decision", "willConfirmSigning")
        self.assertEqual([e["args"] for e in decisions], [{"field": "Signature"}])
        self.assertEqual(cancelled[0]["data"], {"field": "Signature"})
        self.assertEqual(self.log("decision", "willStartSigning")[0]["args"], {"field": "Signature"})
        self.assertEqual(self.signatures(), [])
        code, output = H.pdfsig(self.download("embed-1-refused.pdf"))
        self.assertIn("The signature form field is not signed.", output, output)
        self.assertNotIn("Signature Validation", output, output)
        self.assertEqual(self.server.ok("GET", "/api/state")["phase"], "editing")

        self.set_policy("willConfirmSigning", {"answer": True})
        self.sign_in_frame("embed-1")
        self.assertEqual(len(self.log("decision", "willConfirmSigning")), 2)
        self.wait_log("event", "processDidFinish")
        self.assertEqual([s["field"] for s in self.signatures()], ["Signature"])
        code, output = H.pdfsig(self.download("embed-1-signed.pdf"))
        self.assertIn("Signature Validation: Signature is Valid.", output, output)

    def test_2_display_text_set_in_will_start_signing(self):
        """A handler of willStartSigning changes capture.displayText before it answers: the
        capture dialog that decision opens shows the text, and the signature's appearance holds it."""
        d = self.driver
        self.fresh_document("display-text")
        self.open_host()
        self.assertIsNone(self.server.ok("GET", "/api/configuration")["capture"]["displayText"])
        self.set_policy("willStartSigning", {"configure": {"capture": {"displayText": TEXT, "position": [24, 32, 560, 440]}},
                                             "answer": True})
        self.frame()
        H.by_css(d, "#tb-sign").click()
        H.wait(d, lambda d: H.visible(d, "#capture-dialog .capture-text"), timeout=60, message="capture text")
        self.assertEqual(H.by_css(d, "#capture-dialog .capture-text").text, TEXT)
        # capture.position: the dialog where the configuration says, in the frame's CSS pixels.
        box = d.execute_script("const r = document.getElementById('capture-dialog').getBoundingClientRect();"
                               " return [r.left, r.top, r.width, r.height].map(Math.round);")
        self.assertEqual(box, [24, 32, 560, 440])
        H.shot(d, "embed-2-capture")
        self.capture_and_confirm()
        H.wait(d, lambda d: H.visible(d, "#preview-dialog"), timeout=90, message="preview dialog")
        H.by_css(d, '#preview-dialog [data-action="confirm"]').click()
        H.wait(d, lambda d: H.visible(d, "#signed-dialog"), timeout=90, message="signed dialog")
        H.by_css(d, '#signed-dialog [data-action="continue"]').click()
        changed = [e["data"] for e in self.log("event", "configurationChanged")]
        self.assertIn(TEXT, [c["capture"]["displayText"] for c in changed])
        path = self.download("embed-2-signed.pdf")
        self.assertIn(TEXT, " ".join(H.pdftotext(path).split()))
        self.assertIn("Signature Validation: Signature is Valid.", H.pdfsig(path)[1])
        self.configure({"capture": {"displayText": None, "position": None}})

    def test_3_accepts_input_and_rotation(self):
        """configure({viewer: {acceptsInput: false}}) stops the wheel and pointer input on the
        document (no scrolling, no field focus); true restores them. allowsRotation false asks for
        an orientation lock; the toolbar and page number follow the configuration."""
        d = self.driver
        self.fresh_document("input")
        self.open_host()
        self.configure({"viewer": {"continuousScrolling": True, "verticalScrolling": True}})
        self.frame()
        H.wait(d, "(() => { const v = document.getElementById('viewport'); return v.scrollHeight > v.clientHeight + 200; })()",
               message="a document taller than the frame")
        d.execute_script("document.getElementById('viewport').scrollTop = 0")
        viewport = H.by_css(d, "#viewport")
        scroll_top = lambda: d.execute_script("return document.getElementById('viewport').scrollTop")  # noqa: E731
        focused = lambda: d.execute_script("return document.activeElement?.dataset?.field || null")  # noqa: E731

        self.assertEqual(self.configure({"viewer": {"acceptsInput": False}})["viewer"]["acceptsInput"], False)
        self.frame()
        H.wait(d, "document.getElementById('viewport').classList.contains('no-input')", message="no-input")
        self.assertEqual(self.log("event", "configurationChanged")[-1]["data"]["viewer"]["acceptsInput"], False)
        self.frame()
        ActionChains(d).scroll_from_origin(ScrollOrigin.from_element(viewport), 0, 400).perform()
        time.sleep(0.8)
        self.assertEqual(scroll_top(), 0, "the wheel scrolled a document that takes no input")
        name = H.by_css(d, 'input[data-field="Name"]')
        ActionChains(d).move_to_element(name).click().perform()
        time.sleep(0.3)
        self.assertIsNone(focused(), "a field took focus with input off")
        self.assertEqual(H.by_css(d, 'input[data-field="Name"]').get_attribute("value"), "Grace Hopper")
        H.shot(d, "embed-3-no-input")

        self.configure({"viewer": {"acceptsInput": True}})
        self.frame()
        H.wait(d, "!document.getElementById('viewport').classList.contains('no-input')", message="input again")
        ActionChains(d).scroll_from_origin(ScrollOrigin.from_element(viewport), 0, 300).perform()
        H.wait(d, lambda d: scroll_top() > 100, message="the wheel scrolls again")
        d.execute_script("document.getElementById('viewport').scrollTop = 0")
        ActionChains(d).move_to_element(H.by_css(d, 'input[data-field="Name"]')).click().perform()
        H.wait(d, lambda d: focused() == "Name", message="Name focused by a click")

        # The host scrolls and focuses whatever the input setting (pages from 0).
        self.assertEqual(self.host_js("viewer.scrollToPage(0).then(arguments[0])"), 0)
        refused = self.host_js("viewer.scrollToPage(1).then(() => arguments[0]('resolved'), (e) => arguments[0](e.message))")
        self.assertIn("pages count from 0 to 0", refused)
        self.assertTrue(self.host_js("viewer.scrollToField('Email', {focus: true}).then(arguments[0])"))
        self.frame()
        self.assertEqual(focused(), "Email")
        # Search, then a result in the host's colour (signo scrollToSearchResult:withHighlightColor:).
        word = next(w for w in H.pdftotext(H.save_artifact("embed-demo.pdf", self.demo)).split()
                    if w.isalpha() and len(w) >= 4)
        count = self.host_js("viewer.search(arguments[0]).then(arguments[1])", word)
        self.assertGreaterEqual(count, 1, word)
        self.assertEqual(self.host_js("viewer.scrollToSearchResult(arguments[0], {color: '#00ff00'}).then(arguments[1])",
                                      count - 1), count - 1)
        self.frame()
        self.assertEqual(d.execute_script("return getComputedStyle(document.querySelector('.hit.current')).backgroundColor"),
                         "rgb(0, 255, 0)")
        refused = self.host_js("viewer.scrollToSearchResult(arguments[0]).then(() => arguments[1]('resolved'),"
                               " (e) => arguments[1](e.message))", count)
        self.assertIn("results count from 0", refused)

        # enableAutoRotation: false asks the browser to keep the orientation (refused outside full screen).
        self.frame()
        d.execute_script("window.locks = []; screen.orientation.lock = (type) => { window.locks.push(type);"
                         " return Promise.reject(new Error('not in full screen')); };")
        self.configure({"viewer": {"allowsRotation": False, "showsPageNumber": False, "backgroundColor": "#203040"}})
        self.frame()
        H.wait(d, "window.locks.length > 0", message="orientation lock asked")
        self.assertFalse(H.visible(d, "#pager"))
        self.assertTrue(H.visible(d, "#toolbar"))
        self.assertEqual(d.execute_script("return getComputedStyle(document.body).backgroundColor"), "rgb(32, 48, 64)")
        self.configure({"viewer": {"showsToolbar": False}})
        self.frame()
        H.wait(d, lambda d: not H.visible(d, "#toolbar"), message="toolbar hidden")
        self.configure({"viewer": {"showsToolbar": True, "showsPageNumber": True, "allowsRotation": True,
                                   "backgroundColor": "#e6e6e6", "continuousScrolling": False, "verticalScrolling": False}})

    def test_4_buttons_ask_the_host(self):
        """Signature fields (signatureInfoPressed), Back (backButtonPressed), Save (documentSaved)
        and the viewer rectangle (viewerRectConfirmed / viewerRectCancelled) reach the host."""
        d = self.driver
        self.fresh_document("buttons")
        self.open_host()
        self.set_policy("signatureInfoPressed", {"answer": False})
        self.frame()
        H.by_css(d, "#tb-fields").click()
        self.wait_log("decision", "signatureInfoPressed")
        self.frame()
        time.sleep(0.5)
        self.assertFalse(H.visible(d, "#fields-dialog"), "the viewer's list opened although the host shows its own")
        self.set_policy("signatureInfoPressed", {"answer": True})
        self.frame()
        H.by_css(d, "#tb-fields").click()
        H.wait(d, lambda d: H.visible(d, "#fields-dialog"), message="signature fields dialog")
        d.find_element(By.XPATH, "//dialog[@id='fields-dialog']//button[normalize-space()='Close']").click()
        H.wait(d, lambda d: not H.visible(d, "#fields-dialog"), message="signature fields dialog closed")

        H.by_css(d, "#tb-back").click()
        self.wait_log("notification", "backButtonPressed")
        self.frame()
        self.assertEqual(d.execute_script("return document.body.dataset.ready"), "1", "Back left the viewer")

        self.frame()
        H.by_css(d, "#tb-save").click()
        self.wait_log("decision", "documentSaved")
        self.frame()
        H.wait(d, "document.getElementById('tb-save').disabled", message="Save greyed out")
        self.server.ok("PUT", "/api/fields/Email", {"value": "grace@example.com"})
        H.wait(d, "!document.getElementById('tb-save').disabled", message="Save again after a change")
        self.set_policy("documentSaved", {"answer": False})
        self.frame()
        H.by_css(d, "#tb-save").click()
        self.wait_log("decision", "documentSaved", 2)
        self.frame()
        time.sleep(0.5)
        self.assertFalse(d.execute_script("return document.getElementById('tb-save').disabled"))

        fields = lambda: [f["name"] for f in self.server.ok("GET", "/api/fields")]  # noqa: E731
        before = fields()
        # The host keeps the rectangle (false), then takes it (true): no field is made.
        self.set_policy("viewerRectConfirmed", {"answer": False})
        self.frame()
        H.by_css(d, "#tb-rect").click()
        H.wait(d, lambda d: H.visible(d, "#edit-box"), message="viewer rectangle")
        H.by_css(d, "#box-confirm").click()
        confirmed = self.wait_log("decision", "viewerRectConfirmed")
        self.assertEqual(confirmed[0]["args"]["page"], 0, confirmed)
        self.assertEqual(len(confirmed[0]["args"]["rect"]), 4)
        self.frame()
        H.wait(d, "!document.getElementById('box-confirm').disabled", message="Create again")
        self.assertTrue(H.visible(d, "#edit-box"), "the rectangle was hidden although the host answered false")
        self.set_policy("viewerRectConfirmed", {"answer": True})
        self.frame()
        H.by_css(d, "#box-confirm").click()
        self.wait_log("decision", "viewerRectConfirmed", 2)
        self.frame()
        H.wait(d, lambda d: not H.visible(d, "#edit-box"), message="rectangle hidden")
        time.sleep(0.5)
        self.assertEqual(fields(), before, "a field was made although the host took the rectangle")
        # No answer from the host: the default hides it and the viewer makes SignatureN, as always.
        self.host_js("delete window.policy.viewerRectConfirmed; arguments[0]()")
        self.frame()
        H.by_css(d, "#tb-rect").click()
        H.wait(d, lambda d: H.visible(d, "#edit-box"), message="viewer rectangle")
        H.by_css(d, "#box-confirm").click()
        H.wait(d, lambda d: "Signature1" in fields(), message="Signature1 made")
        self.frame()
        H.by_css(d, "#tb-rect").click()
        H.wait(d, lambda d: H.visible(d, "#edit-box"), message="viewer rectangle")
        H.by_css(d, "#box-cancel").click()
        cancelled = self.wait_log("notification", "viewerRectCancelled")
        ids = [e["args"]["id"] for e in self.log("decision", "viewerRectConfirmed")]
        self.assertEqual(len(set(ids)), 2, ids)
        self.assertEqual(cancelled[0]["data"]["id"], max(ids) + 1)

    def test_5_other_origin_cannot_frame(self):
        """A page of another origin (another port, not --embed-origin) cannot show the viewer:
        the browser refuses the frame (CSP frame-ancestors names the host's origin only)."""
        d = self.driver
        d.switch_to.default_content()
        self.expected_csp = [r"frame-ancestors " + re.escape(self.host.origin)]
        d.get(self.other.origin + "/frame.html")
        time.sleep(3)
        H.console(d)
        refusals = [m for m in H.CONSOLE[self.console_start:] if "frame-ancestors " + self.host.origin in m]
        self.assertTrue(refusals, H.CONSOLE[self.console_start:])
        d.switch_to.frame("viewer")
        try:
            self.assertEqual(d.execute_script("return document.URL"), "chrome-error://chromewebdata/")
            self.assertEqual(d.find_elements(By.CSS_SELECTOR, "#viewport, #toolbar"), [])
        finally:
            d.switch_to.default_content()

    def test_6_messages_from_elsewhere_are_ignored(self):
        """Commands from another origin's frame, or from a frame of the host's origin that is not
        the viewer's parent, change nothing and get no reply; the host ignores events, decisions
        and `ready` that do not come from the viewer's frame; a message of another protocol version
        from the right parent is ignored too. The real host still drives the viewer afterwards."""
        d = self.driver
        self.open_host()
        before = self.server.ok("GET", "/api/configuration")
        entries = len(self.log())
        for source in (self.other.origin + "/forger.html", self.host.origin + "/sibling.html"):
            done = self.host_js("""
                const done = arguments[1];
                window.addEventListener('message', (event) => { if (event.data?.forgerDone !== undefined) done(event.data.forgerDone); });
                const frame = document.createElement('iframe');
                frame.title = 'forger';
                frame.src = arguments[0];
                document.getElementById('extra').append(frame);""", source)
            self.assertEqual(done, 0, f"{source} received replies from the viewer")
        # From the parent, but of another version.
        self.host_js("""document.querySelector('#viewer iframe').contentWindow.postMessage({autograph: 2, type: 'command',
            requestId: 1, command: 'configure', args: {changes: {viewer: {showsToolbar: false}}}}, arguments[0]);
            setTimeout(arguments[1], 1000);""", self.server.base)
        self.assertEqual(self.server.ok("GET", "/api/configuration"), before)
        self.frame()
        self.assertTrue(H.visible(d, "#toolbar"))
        forged = [e for e in self.log()[entries:] if "forged" in json.dumps(e)]
        self.assertEqual(forged, [], "the host took a message that did not come from the viewer")
        self.configure({"viewer": {"showsToolbar": False}})
        self.frame()
        H.wait(d, lambda d: not H.visible(d, "#toolbar"), message="toolbar hidden by the host")
        self.configure({"viewer": {"showsToolbar": True}})

    def test_7_viewer_in_a_tab_answers_defaults(self):
        """The link opened in a tab of its own (not framed by the host): the viewer answers each
        decision at once with the default, so signing does not wait for --decision-timeout (30 s)."""
        d = self.driver
        d.switch_to.default_content()
        d.get("about:blank")  # no host page, no framed viewer listening
        self.fresh_document("tab")
        H.open_viewer(d, self.server.link())
        started = time.monotonic()
        H.by_css(d, "#tb-sign").click()
        H.wait(d, lambda d: H.visible(d, "#capture-dialog"), timeout=60, message="capture dialog")
        self.assertLess(time.monotonic() - started, 15, "willStartSigning waited for a host")
        self.capture_and_confirm()
        H.wait(d, lambda d: H.visible(d, "#preview-dialog"), timeout=90, message="preview dialog")
        self.assertLess(time.monotonic() - started, 25, "willConfirmSigning waited for a host")
        H.by_css(d, '#preview-dialog [data-action="cancel"]').click()
        H.wait(d, lambda d: self.server.ok("GET", "/api/state")["phase"] == "editing", message="cancelled")

    def test_8_required_check_box_before_the_host(self):
        """The required check box unticked: Sign in the framed viewer is refused before the host is
        asked (no willStartSigning), the host hears missingRequiredFormField, the box is focused and
        marked aria-invalid with a message; ticked, the marks go and the host's flow signs it (pypdf:
        the box is on)."""
        d = self.driver
        self.fresh_document("required")
        self.server.ok("PUT", "/api/fields/Agree", {"value": False})
        self.open_host()
        self.set_policy("willStartSigning", {"answer": True})
        entries = len(self.log())
        self.frame()
        H.by_css(d, "#tb-sign").click()
        missing = self.wait_log("event", "missingRequiredFormField")
        self.assertEqual([f["name"] for f in missing[-1]["data"]["fields"]], ["Agree"])
        self.assertEqual([e for e in self.log()[entries:] if e["kind"] == "decision"], [])
        self.frame()
        H.wait(d, "document.activeElement && document.activeElement.dataset.field === 'Agree'", message="Agree focused")
        box = H.by_css(d, 'input[data-field="Agree"]')
        self.assertEqual(box.get_attribute("aria-invalid"), "true")
        message = d.find_element(By.ID, box.get_attribute("aria-describedby"))
        self.assertTrue(message.is_displayed() and "tick" in message.text, message.text)
        self.assertEqual(d.find_elements(By.CSS_SELECTOR, "dialog[open]"), [])
        H.shot(d, "embed-8-required")
        box.click()
        H.wait(d, "document.querySelector('input[data-field=\"Agree\"]').getAttribute('aria-invalid') === null",
               message="aria-invalid cleared")
        self.assertEqual(d.find_elements(By.CSS_SELECTOR, ".missing-message"), [])
        H.wait(d, lambda d: {f["name"]: f["value"] for f in self.server.ok("GET", "/api/fields")}.get("Agree")
               not in ("", "Off"), message="Agree saved")
        self.sign_in_frame("embed-8")
        self.assertEqual(len(self.log("decision", "willStartSigning")), 1)
        self.wait_log("event", "processDidFinish")
        path = self.download("embed-8-signed.pdf")
        fields = H.pdf_reader(path.read_bytes()).get_fields()
        self.assertNotIn(str(fields["Agree"].get("/V")), ("/Off", "None"))
        self.assertIn("Signature Validation: Signature is Valid.", H.pdfsig(path)[1])


if __name__ == "__main__":
    unittest.main(verbosity=2)
