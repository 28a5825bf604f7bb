"""Browser tests of `autograph serve`'s same-origin policy, with two origins on loopback: the viewer
on 127.0.0.1:PORT and another page on 127.0.0.1:OTHER, served by the test, open in the same
browser profile once the viewer's link set its cookie (another port is another origin but the same
site, so the browser sends the viewer's SameSite=Strict cookie with that page's requests).

The other page must not be able to change anything (open a document, store a signature, save),
frame the viewer or read from it. What the page itself can see is not evidence enough (a
cross-origin answer is hidden from it either way), so every attempt is checked three ways: the
requests as the browser sent and the server answered them (DevTools network events: the cookie
went with them and the answer was 403), the page's own view, and the server's state afterwards
through the API with the bearer token and its store, byte for byte.

Also the link's token: after the redirect no address, request or history entry but the link's own
holds it (LinkTests; what Chromium's History keeps of the link is printed and kept in
.build/browser-artifacts/history.txt)."""

import hashlib
import html
import http.server
import json
import pathlib
import re
import shutil
import sqlite3
import sys
import tempfile
import threading
import time
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import harness as H  # noqa: E402

STROKES = {"strokes": [[{"x": 10, "y": 40}, {"x": 60, "y": 10}, {"x": 110, "y": 40}]]}


class OtherOrigin:
    """A second HTTP server on 127.0.0.1, another port: serves the pages put in `pages` (path →
    HTML) and records every request it receives (method, path, headers)."""

    def __init__(self):
        self.pages = {}
        self.requests = []
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                owner.requests.append((self.command, self.path, dict(self.headers)))
                page = owner.pages.get(self.path.split("?")[0])
                body = (page or "not found").encode()
                self.send_response(200 if page else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


# The other page's helpers: `attempt` keeps what the page saw of a request; `postForm` submits a
# form into the frame `sink` (or the page itself); `sandboxed` runs a script in a sandboxed frame
# (an opaque origin: `Origin: null`).
HELPERS = """
const V = %(viewer)s;
window.results = {};
async function attempt(name, request) {
  try {
    const response = await request;
    results[name] = {type: response.type, status: response.status};
  } catch (error) {
    results[name] = {error: String(error)};
  }
}
function framed(frame) {
  return new Promise((resolve) => {
    frame.addEventListener('load', () => resolve('load'), {once: true});
    setTimeout(() => resolve('timeout'), 5000);
  });
}
function postForm(name, action, enctype, fields, file) {
  const form = document.createElement('form');
  Object.assign(form, {method: 'post', action, enctype, target: 'sink'});
  for (const [key, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    Object.assign(input, {type: 'hidden', name: key, value});
    form.append(input);
  }
  if (file) {
    const input = document.createElement('input');
    Object.assign(input, {type: 'file', name: 'file'});
    const transfer = new DataTransfer();
    transfer.items.add(new File([file], 'document.pdf', {type: 'application/pdf'}));
    input.files = transfer.files;
    form.append(input);
  }
  document.body.append(form);
  const loaded = framed(document.getElementById('sink'));
  form.submit();
  return loaded.then((how) => { results[name] = {frame: how}; });
}
function sandboxed(name, script) {
  const frame = document.createElement('iframe');
  frame.sandbox = 'allow-scripts';
  frame.srcdoc = '<script>const V = ' + JSON.stringify(V) + ';(async () => {' + script
    + '})().then(() => parent.postMessage("done", "*"), (e) => parent.postMessage(String(e), "*"));<\\/script>';
  return new Promise((resolve) => {
    addEventListener('message', (event) => { results[name] = {said: event.data}; resolve(); }, {once: true});
    setTimeout(() => { results[name] = {said: 'timeout'}; resolve(); }, 5000);
    document.body.append(frame);
  });
}
"""


def page(script, body=""):
    """The other origin's page: HELPERS, then `script` (an async function body); sets
    `window.done` when it ends."""
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>Another origin</title></head>
<body><h1>A page on another port</h1>
<iframe name="sink" id="sink" width="300" height="100"></iframe>
{body}
<script>
{HELPERS % {"viewer": json.dumps(H.BASE)}}
(async () => {{ {script} }})().catch((e) => {{ results.script = String(e); }}).then(() => {{ window.done = true; }});
</script></body></html>"""


def top_level_form(action, enctype, fields):
    """A form that posts to the viewer in the other page's own tab (a top-level navigation)."""
    inputs = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
                     for k, v in fields.items())
    return f'<form id="top" method="post" action="{html.escape(action)}" enctype="{enctype}">{inputs}</form>'


class CrossOriginTests(H.BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        if not H.URL:
            raise unittest.SkipTest("AUTOGRAPH_URL is not set: run scripts/browser-tests")
        pdf = H.demo_pdf()
        if pdf is None:
            raise unittest.SkipTest("the demo form's bytes are not at hand")
        H.open_document(pdf, "origins-" + str(time.monotonic_ns()))
        cls.other = OtherOrigin()
        # Chromium runs a sandboxed frame in a process of its own, whose requests chromedriver's
        # network log misses; in the page's process they are logged (what the frame may do, its
        # opaque origin and the cookies sent, is the same).
        cls.driver = H.new_driver(network=True, arguments=["--disable-features=IsolateSandboxedIframes"])
        # The viewer's link, as a person opens it: from now on the profile holds the cookie.
        H.open_viewer(cls.driver)
        cookies = [c for c in cls.driver.get_cookies() if c["name"].startswith("autograph-")]
        assert len(cookies) == 1, cookies
        cls.cookie = f"{cookies[0]['name']}={cookies[0]['value']}"

    @classmethod
    def tearDownClass(cls):
        H.close(cls.driver)
        cls.other.close()

    def snapshot(self):
        """What a successful attack would change, read with the bearer token (and the store)."""
        state = H.api_ok("GET", "/api/state")
        _, headers, _ = H.raw_request("GET", "/api/pages/0/tile?scale=0.1", {"Authorization": "Bearer " + H.TOKEN})
        etag = dict((k.lower(), v) for k, v in headers).get("etag", "")
        return {
            "documentID": state["documentID"],
            "phase": state["phase"],
            "saved signatures": len(H.api_ok("GET", "/api/signatures")),
            "fields": {f["name"]: f["value"] for f in H.api_ok("GET", "/api/fields")},
            "document bytes": hashlib.sha256(H.api("GET", "/api/download", raw=True)[1]).hexdigest(),
            # "RUN-REVISION-PAGE-SCALE": a new revision renders under a new number.
            "tile revision": etag.split("-")[1] if etag.count("-") >= 3 else etag,
            "store": H.store_digest(),
        }

    def attack(self, name, script, body=""):
        """Opens the other origin's page `name` in the tab that showed the viewer; returns what the
        page saw (`results`) and the requests sent to the viewer's server. Asserts that the server's
        state did not change."""
        d = self.driver
        d.get("about:blank")
        before = self.snapshot()
        H.network(d)
        self.other.pages[f"/{name}.html"] = page(script, body)
        d.get(f"{self.other.origin}/{name}.html")
        H.wait(d, "window.done === true", timeout=90, message=f"{name} page done")
        results = d.execute_script("return window.results")
        H.shot(d, f"origins-{name}")
        time.sleep(0.3)
        requests = self.to_viewer(H.network(d))
        self.assertEqual(self.snapshot(), before, f"{name}: the server's state changed")
        return results, requests

    def submit_top_level(self, name):
        """Submits the page's form #top (a top-level navigation to the viewer's server): the
        answer is the server's refusal, and nothing changed."""
        d = self.driver
        before = self.snapshot()
        H.network(d)
        d.execute_script("document.getElementById('top').submit()")
        H.wait(d, lambda d: d.current_url.startswith(H.BASE), message=f"{name} top-level form")
        H.wait(d, "document.readyState === 'complete'", message=f"{name} answer")
        text = d.execute_script("return document.body ? document.body.innerText : ''")
        self.assertIn('"forbidden"', text, f"{name}: {text[:300]}")
        self.assertNotIn("Autograph", d.title)
        requests = self.to_viewer(H.network(d))
        self.assertEqual(self.snapshot(), before, f"{name}: the server's state changed")
        return requests

    @staticmethod
    def to_viewer(requests):
        return [r for r in requests if r["url"] and r["url"].startswith(H.BASE + "/")]

    def assert_refused(self, requests, tag, method, preflight=False, cookie=True):
        """The requests tagged `a=TAG` reached the server and were answered 403 — with the viewer's
        cookie attached (`cookie`): the browser sent the credential, the server's policy refused.
        `preflight`: the browser asked first (OPTIONS, no cookie), was refused, sent nothing else."""
        sent = [r for r in requests if re.search(rf"[?&]a={re.escape(tag)}(&|$)", r["url"])]
        summary = json.dumps(sent, indent=1)[:3000]
        self.assertTrue(sent, f"{tag}: no request reached the server")
        if preflight:
            # DevTools lists the request the page made, never sent: no headers went, no status came.
            asked = [r for r in sent if r["method"] == "OPTIONS"]
            self.assertEqual(len(asked), 1, summary)
            self.assertEqual(asked[0]["status"], 403, summary)
            for request in sent:
                if request["method"] != "OPTIONS":
                    self.assertEqual(request["method"], method, summary)
                    self.assertEqual((request["headers"], request["status"]), ({}, None), summary)
                    self.assertTrue((request["cors"] or "").startswith("Preflight"), summary)
            return sent
        self.assertEqual([r["method"] for r in sent], [method] * len(sent), summary)
        for request in sent:
            self.assertEqual(request["status"], 403, summary)
            if cookie:
                self.assertIn(self.cookie, request["headers"].get("cookie", ""), summary)
        return sent

    def assert_hidden_from_page(self, results, name):
        """A cross-origin answer the page could not read: a failed fetch, or an opaque answer."""
        seen = results.get(name)
        self.assertTrue(seen, f"{name}: {results}")
        self.assertTrue("error" in seen or (seen.get("type") == "opaque" and seen.get("status") == 0), f"{name}: {seen}")

    # (a) ──────────────────────────────────────────────────────────────────────────────
    def test_a_cannot_replace_the_document(self):
        script = """
          const pdf = '%PDF-1.7\\n% the other page\\'s document\\n';
          await attempt('cors', fetch(V + '/api/documents?a=doc-cors',
              {method: 'POST', body: new Blob([pdf]), credentials: 'include'}));
          await attempt('preflight', fetch(V + '/api/documents?a=doc-preflight', {method: 'POST',
              body: new Blob([pdf], {type: 'application/pdf'}), credentials: 'include',
              headers: {'X-Autograph': '1', 'X-Document-ID': 'replaced'}}));
          await attempt('nocors', fetch(V + '/api/documents?a=doc-nocors',
              {method: 'POST', body: new Blob([pdf]), credentials: 'include', mode: 'no-cors'}));
          await postForm('form-text', V + '/api/documents?a=doc-form-text', 'text/plain', {[pdf]: ''});
          await postForm('form-file', V + '/api/documents?a=doc-form-file', 'multipart/form-data', {}, pdf);
          await sandboxed('sandboxed', "await fetch(V + '/api/documents?a=doc-null', "
              + "{method: 'POST', body: new Blob(['%PDF-1.7']), credentials: 'include', mode: 'no-cors'});");
        """
        self.expected_csp = [r"frame-ancestors 'none'"]  # the forms' answers, refused a frame
        body = top_level_form(H.BASE + "/api/documents?a=doc-top", "text/plain", {"%PDF-1.7 the other page": ""})
        results, requests = self.attack("documents", script, body)
        for name in ("cors", "preflight", "nocors"):
            self.assert_hidden_from_page(results, name)
        self.assert_refused(requests, "doc-cors", "POST")
        self.assert_refused(requests, "doc-preflight", "POST", preflight=True)
        self.assert_refused(requests, "doc-nocors", "POST")
        self.assert_refused(requests, "doc-form-text", "POST")
        self.assert_refused(requests, "doc-form-file", "POST")
        # An opaque origin (sandboxed frame): Origin: null; the browser withholds the cookie there.
        refused = self.assert_refused(requests, "doc-null", "POST", cookie=False)
        self.assertEqual(refused[0]["headers"].get("origin"), "null")
        self.assert_refused(self.submit_top_level("documents"), "doc-top", "POST")

    # (b) ──────────────────────────────────────────────────────────────────────────────
    def test_b_cannot_store_a_signature(self):
        strokes = json.dumps(STROKES)
        script = f"""
          const body = {json.dumps(strokes)};
          await attempt('cors', fetch(V + '/api/signatures?a=sig-cors',
              {{method: 'POST', body, credentials: 'include', headers: {{'Content-Type': 'text/plain'}}}}));
          await attempt('preflight', fetch(V + '/api/signatures?a=sig-preflight', {{method: 'POST', body,
              credentials: 'include', headers: {{'Content-Type': 'application/json', 'X-Autograph': '1'}}}}));
          await attempt('nocors', fetch(V + '/api/signatures?a=sig-nocors',
              {{method: 'POST', body, credentials: 'include', mode: 'no-cors'}}));
          // text/plain form: the body is NAME=VALUE, so the name carries the JSON.
          await postForm('form', V + '/api/signatures?a=sig-form', 'text/plain',
              {{[body.slice(0, -1) + ', "pad": "']: '"}}'}});
        """
        self.expected_csp = [r"frame-ancestors 'none'"]
        body = top_level_form(H.BASE + "/api/signatures?a=sig-top", "text/plain",
                              {strokes[:-1] + ', "pad": "': '"}'})
        results, requests = self.attack("signatures", script, body)
        for name in ("cors", "preflight", "nocors"):
            self.assert_hidden_from_page(results, name)
        self.assert_refused(requests, "sig-cors", "POST")
        self.assert_refused(requests, "sig-preflight", "POST", preflight=True)
        self.assert_refused(requests, "sig-nocors", "POST")
        self.assert_refused(requests, "sig-form", "POST")
        self.assert_refused(self.submit_top_level("signatures"), "sig-top", "POST")

    # (c) ──────────────────────────────────────────────────────────────────────────────
    def test_c_cannot_save(self):
        script = """
          await attempt('cors', fetch(V + '/api/save?a=save-cors', {method: 'POST', credentials: 'include'}));
          await attempt('preflight', fetch(V + '/api/save?a=save-preflight',
              {method: 'POST', credentials: 'include', headers: {'X-Autograph': '1'}}));
          await attempt('nocors', fetch(V + '/api/save?a=save-nocors',
              {method: 'POST', credentials: 'include', mode: 'no-cors'}));
          await postForm('form', V + '/api/save?a=save-form', 'application/x-www-form-urlencoded', {x: '1'});
        """
        self.expected_csp = [r"frame-ancestors 'none'"]
        body = top_level_form(H.BASE + "/api/save?a=save-top", "application/x-www-form-urlencoded", {"x": "1"})
        results, requests = self.attack("save", script, body)
        for name in ("cors", "preflight", "nocors"):
            self.assert_hidden_from_page(results, name)
        self.assert_refused(requests, "save-cors", "POST")
        self.assert_refused(requests, "save-preflight", "POST", preflight=True)
        self.assert_refused(requests, "save-nocors", "POST")
        self.assert_refused(requests, "save-form", "POST")
        self.assert_refused(self.submit_top_level("save"), "save-top", "POST")
        # The oracle sees a save: the same request with the bearer token changes the store.
        before = H.store_digest()
        self.assertEqual(H.api_ok("POST", "/api/save"), {"saved": True})
        self.assertNotEqual(H.store_digest(), before, "a save left the store as it was: the check above proves nothing")

    # (d) ──────────────────────────────────────────────────────────────────────────────
    def test_d_cannot_frame_the_viewer(self):
        script = """
          await Promise.all([framed(document.getElementById('viewer')), framed(document.getElementById('index'))]);
          await new Promise((resolve) => setTimeout(resolve, 1000));
        """
        body = (f'<iframe id="viewer" name="viewer" src="{H.BASE}/?a=frame" width="600" height="400"></iframe>'
                f'<iframe id="index" name="index" src="{H.BASE}/index.html?a=frame-index" width="300" height="200"></iframe>')
        self.expected_csp = [r"frame-ancestors 'none'"]
        _, requests = self.attack("frame", script, body)
        d = self.driver
        # The browser's refusal, in the console of the page that framed it (it names the origin
        # only), once for each frame.
        H.console(d)
        refusals = [m for m in H.CONSOLE[self.console_start:]
                    if f"Framing '{H.BASE}/' violates the following Content Security Policy directive: "
                    "\"frame-ancestors 'none'\"" in m]
        self.assertEqual(len(refusals), 2, H.CONSOLE[self.console_start:])
        # The server's: the frame's navigation carried the cookie and was answered 403 …
        self.assert_refused(requests, "frame", "GET")
        self.assert_refused(requests, "frame-index", "GET")
        # … and the viewer never started: no file or API request but the frames' own.
        self.assertEqual(sorted(r["url"] for r in requests),
                         sorted([H.BASE + "/?a=frame", H.BASE + "/index.html?a=frame-index"]))
        # What the frames hold: Chromium's error page, no viewer.
        for frame in ("viewer", "index"):
            d.switch_to.frame(frame)
            try:
                self.assertEqual(d.execute_script("return document.URL"), "chrome-error://chromewebdata/")
                self.assertEqual(d.find_elements(By.CSS_SELECTOR, "#viewport, #toolbar"), [])
            finally:
                d.switch_to.default_content()

    # (e) ──────────────────────────────────────────────────────────────────────────────
    def test_e_cannot_read(self):
        script = """
          const image = document.getElementById('tile');
          results.image = await new Promise((resolve) => {
            if (image.complete) resolve(image.naturalWidth ? 'load' : 'error');
            image.onload = () => resolve('load');
            image.onerror = () => resolve('error');
          });
          await attempt('state-nocors', fetch(V + '/api/state?a=state-nocors', {mode: 'no-cors', credentials: 'include'}));
          await attempt('state-cors', fetch(V + '/api/state?a=state-cors', {credentials: 'include'}));
          await attempt('download-nocors', fetch(V + '/api/download?a=download-nocors', {mode: 'no-cors', credentials: 'include'}));
          results.events = await new Promise((resolve) => {
            const source = new EventSource(V + '/api/events?a=events', {withCredentials: true});
            source.onopen = () => { source.close(); resolve('open'); };
            source.onerror = () => { source.close(); resolve('error'); };
          });
          results.script = await new Promise((resolve) => {
            const element = document.createElement('script');
            element.src = V + '/api/state?a=script';
            element.onload = () => resolve('load');
            element.onerror = () => resolve('error');
            document.body.append(element);
          });
        """
        body = f'<img id="tile" src="{H.BASE}/api/pages/0/tile?scale=0.5&a=tile">'
        results, requests = self.attack("read", script, body)
        self.assertEqual(results["image"], "error", results)
        self.assertEqual(self.driver.execute_script("return document.getElementById('tile').naturalWidth"), 0)
        for name in ("state-nocors", "state-cors", "download-nocors"):
            self.assert_hidden_from_page(results, name)
        self.assertEqual(results["events"], "error", results)
        self.assertEqual(results["script"], "error", results)
        for tag in ("tile", "state-nocors", "state-cors", "download-nocors", "events", "script"):
            self.assert_refused(requests, tag, "GET")
        # No-cors answers (image, fetch, script) are withheld by Cross-Origin-Resource-Policy too:
        # the browser blocks them whatever their status.
        for tag in ("tile", "state-nocors", "download-nocors", "script"):
            refused = [r for r in requests if f"a={tag}" in r["url"]]
            self.assertEqual(refused[0]["blocked"], "corp-not-same-origin", json.dumps(refused))
            self.assertEqual(refused[0]["response_headers"].get("cross-origin-resource-policy"), "same-origin")

    # (f) ──────────────────────────────────────────────────────────────────────────────
    def test_f_viewer_still_works_in_its_tab(self):
        """After all of the above, the viewer opens in a tab of its own with the cookie alone (no
        token), and a field edit is saved."""
        d = self.driver
        first = d.current_window_handle
        d.switch_to.new_window("tab")
        try:
            H.open_viewer(d, H.BASE + "/")
            H.shot(d, "origins-f-viewer")
            name = H.by_css(d, 'input[data-field="Name"]')
            name.click()
            name.clear()
            name.send_keys("Katherine Johnson", Keys.TAB)
            H.wait(d, lambda d: {f["name"]: f["value"] for f in H.api_ok("GET", "/api/fields")}.get("Name")
                   == "Katherine Johnson", message="Name saved")
            refused = [r for r in self.to_viewer(H.network(d)) if r["status"] == 403]
            self.assertEqual(refused, [], "the viewer's own requests were refused")
        finally:
            d.close()
            d.switch_to.window(first)

    # (g) ──────────────────────────────────────────────────────────────────────────────
    @unittest.expectedFailure
    def test_g_other_port_never_receives_the_cookie(self):
        """A known gap, kept visible: cookies ignore ports, so the browser sends the viewer's cookie
        with every request to any server on 127.0.0.1 — the other port's server reads it in its own
        request headers and can replay it from outside a browser with any Origin it likes (the
        cookie is a full credential: it reads the document, and with `X-Autograph: 1` and a forged
        `Origin` it writes). Passes once the cookie is confined to the viewer's server (e.g. the
        viewer served from an address of its own); then drop the decorator."""
        self.attack("cookie", "")
        leaked = [(method, path) for method, path, headers in self.other.requests
                  if self.cookie.split("=")[0] + "=" in headers.get("Cookie", "")]
        self.assertEqual(leaked, [], "the other port's server received the viewer's cookie")


class LinkTests(H.BrowserTestCase):
    """The printed link's token, once the link is opened: in no address, request, script-visible
    place; and what the browser profile keeps of it."""

    def test_token_hygiene(self):
        if not H.URL:
            self.skipTest("AUTOGRAPH_URL is not set: run scripts/browser-tests")
        profile = pathlib.Path(tempfile.mkdtemp(prefix="autograph-profile-"))
        self.addCleanup(shutil.rmtree, profile, True)
        link = H.new_link()
        code = link.split("login=")[1]
        d = H.new_driver(profile=str(profile), network=True)
        try:
            H.open_viewer(d, link)
            self.assertEqual(d.execute_script("return location.href"), H.BASE + "/")
            self.assertEqual(d.execute_script("return document.referrer"), "")
            self.assertEqual(d.execute_script("return document.cookie"), "", "the cookie is HttpOnly")
            names = d.execute_script(
                "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
                ".map(e => e.name)")
            self.assertGreater(len(names), 5, names)
            self.assertEqual([n for n in names if code in n or H.TOKEN in n], [])
            self.assertEqual(names[0], H.BASE + "/")
            # On the wire: the link alone carries its code, answered 303 with the cookie; the API
            # token is in no request of the browser at all.
            requests = H.network(d)
            self.assertEqual([r["url"] for r in requests if H.TOKEN in json.dumps(r)], [])
            with_code = [r for r in requests if code in json.dumps(r)]
            self.assertEqual(len(with_code), 1, json.dumps(with_code, indent=1)[:3000])
            first = with_code[0]
            self.assertEqual((first["url"], first["method"], first["status"]), (link, "GET", 303))
            self.assertEqual(first["response_headers"].get("location"), "/")
            self.assertTrue([r for r in requests if r["url"] == H.BASE + "/api/state" and r["status"] == 200])
            cookies = d.get_cookies()
            self.assertEqual(len(cookies), 1, cookies)
            self.assertTrue(cookies[0]["name"].startswith("autograph-"))
            self.assertEqual((cookies[0]["httpOnly"], cookies[0]["sameSite"]), (True, "Strict"))
            self.assertNotIn(H.TOKEN, cookies[0]["value"])
            self.assertNotIn(code, cookies[0]["value"])
            # Reloading needs the cookie only.
            d.refresh()
            H.wait(d, "document.body.dataset.ready === '1'", message="viewer ready after reload")
            self.assertEqual([r["url"] for r in H.network(d) if code in json.dumps(r)], [])
            # The spent link opened again, the cookie already held: redirected all the same.
            H.open_viewer(d, link)
            self.assertEqual(d.execute_script("return location.href"), H.BASE + "/")
            self.assertEqual(d.execute_script("return performance.getEntriesByType('navigation')[0].name"), H.BASE + "/")
            again = [r for r in H.network(d) if code in json.dumps(r)]
            self.assertEqual([(r["url"], r["status"]) for r in again], [(link, 303)])
        finally:
            H.close(d)
        # What History keeps of the link is spent: without the cookie it opens nothing.
        self.assertEqual(H.raw_request("GET", link[len(H.BASE):])[0], 403)
        self.report_profile(profile, link, code)

    def report_profile(self, profile, link, code):
        """What the profile keeps of the link, read once Chromium has quit: History's URLs and
        visits (printed, and kept in ARTIFACTS/history.txt), and the files that hold the token.
        Asserted: no URL with the token but the link itself, and the page recorded without it."""
        deadline = time.monotonic() + 15
        while (profile / "SingletonLock").is_symlink() and time.monotonic() < deadline:
            time.sleep(0.2)
        copy = H.ARTIFACTS / "History.sqlite"
        shutil.copyfile(profile / "Default" / "History", copy)
        connection = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
        try:
            urls = connection.execute("SELECT id, url, title, visit_count, typed_count, hidden FROM urls ORDER BY id").fetchall()
            visits = connection.execute(
                "SELECT v.id, u.url, v.from_visit, v.transition FROM visits v JOIN urls u ON u.id = v.url ORDER BY v.id"
            ).fetchall()
        finally:
            connection.close()
        files = [path for path in profile.rglob("*") if path.is_file() and not path.is_symlink()]
        holding = sorted(str(path.relative_to(profile)) for path in files if code.encode() in path.read_bytes())
        with_api_token = sorted(str(path.relative_to(profile)) for path in files if H.TOKEN.encode() in path.read_bytes())
        hidden = lambda text: text.replace(code, "<CODE>")  # noqa: E731
        lines = ["urls (id, url, title, visit_count, typed_count, hidden):"]
        lines += [f"  {i} {hidden(u)} {t!r} visits={v} typed={ty} hidden={h}" for i, u, t, v, ty, h in urls]
        lines += ["visits (id, url, from_visit, transition):"]
        lines += [f"  {i} {hidden(u)} from={f} {transition(t)}" for i, u, f, t in visits]
        lines += ["profile files holding the (spent) link's code: " + ", ".join(holding)]
        (H.ARTIFACTS / "history.txt").write_text("\n".join(lines) + "\n")
        print("\nhistory: " + "\n history: ".join(lines))
        self.assertEqual(with_api_token, [], "the API token reached the browser profile")
        with_code = [u for _, u, *_ in urls if code in u]
        self.assertLessEqual(set(with_code), {link}, "a URL other than the link holds its code")
        self.assertIn(H.BASE + "/", [u for _, u, *_ in urls], "the viewer's page is not in History")


TRANSITION_CORES = ["LINK", "TYPED", "AUTO_BOOKMARK", "AUTO_SUBFRAME", "MANUAL_SUBFRAME", "GENERATED",
                    "AUTO_TOPLEVEL", "FORM_SUBMIT", "RELOAD", "KEYWORD", "KEYWORD_GENERATED"]
TRANSITION_QUALIFIERS = [(0x01000000, "FORWARD_BACK"), (0x02000000, "FROM_ADDRESS_BAR"), (0x04000000, "HOME_PAGE"),
                         (0x08000000, "FROM_API"), (0x10000000, "CHAIN_START"), (0x20000000, "CHAIN_END"),
                         (0x40000000, "CLIENT_REDIRECT"), (0x80000000, "SERVER_REDIRECT")]


def transition(value):
    """Chromium's ui::PageTransition as text: the core type and its qualifiers."""
    value &= 0xFFFFFFFF
    core = value & 0xFF
    names = [TRANSITION_CORES[core] if core < len(TRANSITION_CORES) else str(core)]
    return "|".join(names + [name for bit, name in TRANSITION_QUALIFIERS if value & bit])


if __name__ == "__main__":
    unittest.main(verbosity=2)
