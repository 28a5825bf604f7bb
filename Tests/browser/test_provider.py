"""Browser test of signing with the person's own certificate at their trust service provider (CSC
API v2, OAuth 2.0 authorization code with PKCE; docs/web-api.md, "Provider signing").

The provider is Tests/Scripts/csc_v2_server.py (a spec-following CSC v2 test server; the person
"consents" at once) on loopback, reached as http://localhost:PORT while the viewer is
http://127.0.0.1:PORT: another site, so the browser comes back from the provider in a cross-site
navigation that carries none of the viewer's SameSite=Strict cookie. The test runs its own
`autograph serve --csc http://localhost:PORT --csc-client-id … --csc-secret-file …`
(AUTOGRAPH_BINARY). It shows that the viewer's "Provider certificate" button takes the browser to
the provider and back to a working viewer that names the provider's certificate, and that the
signature made next is by that certificate; and, for a credential whose owner authorizes each
signature (oauth2code), that the preview's Sign button takes the browser to the provider with the
prepared signature's hash and that coming back signs it."""

import math
import pathlib
import subprocess
import sys
import tempfile
import unittest

from selenium.webdriver.common.by import By

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import harness as H  # noqa: E402
from test_embed import BINARY, Server  # noqa: E402
from test_viewer import draw, signature_points  # noqa: E402

CLIENT = "autograph-tests"
SECRET = "client-secret-for-tests"


class Provider:
    """The CSC v2 test server on a free port of 127.0.0.1."""

    def __init__(self, listing=()):
        self.work = pathlib.Path(tempfile.mkdtemp(prefix="autograph-provider-"))
        self.process = subprocess.Popen(
            [sys.executable, str(H.ROOT / "Tests/Scripts/csc_v2_server.py"), "--config",
             str(H.ROOT / "Tests/Fixtures/certomancer/certomancer.yml"), "--client-id", CLIENT,
             "--client-secret", SECRET, "--log", str(H.ARTIFACTS / "provider-requests.log")]
            + (["--list", *listing] if listing else []),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("PORT "):
            self.close()
            raise AssertionError(f"the CSC v2 test server did not start: {line!r}")
        self.port = int(line.split()[1])

    def close(self):
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def serve(provider, name):
    """`autograph serve` whose people sign with their own certificate at `provider`."""
    secret = provider.work / "secret"
    secret.write_text(SECRET + "\n")
    return Server(name=name, extra=[
        "--csc", f"http://localhost:{provider.port}", "--csc-client-id", CLIENT, "--csc-secret-file", str(secret)])


class ProviderSigningTests(H.BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        if not BINARY:
            raise unittest.SkipTest("AUTOGRAPH_BINARY is not set: run scripts/browser-tests")
        if subprocess.run([sys.executable, "-c", "import csc_dummy.csc_dummy_server"]).returncode != 0:
            raise unittest.SkipTest("certomancer-csc-dummy is not installed (scripts/install-deps test)")
        H.ARTIFACTS.mkdir(parents=True, exist_ok=True)
        cls.providers, cls.servers = [], []
        cls.driver = H.new_driver(1280, 900)

    @classmethod
    def tearDownClass(cls):
        H.close(cls.driver)
        for server in cls.servers:
            server.close()
        for provider in cls.providers:
            provider.close()

    def start(self, name, listing=()):
        provider = Provider(listing)
        self.providers.append(provider)
        server = serve(provider, name)
        self.servers.append(server)
        return server

    def choose_certificate(self, server, expected):
        """Opens the viewer, goes to the provider with its button and back; the button names `expected`."""
        d = self.driver
        d.get(server.link())
        H.wait(d, "document.body.dataset.ready === '1'", message="viewer ready")
        H.wait(d, lambda d: H.visible(d, "#tb-provider"), message="provider button")
        self.assertIsNone(server.ok("GET", "/api/provider-signing")["signer"])
        H.by_css(d, "#tb-provider").click()

        def back_with_certificate(d):
            label = d.find_element(By.ID, "tb-provider").get_attribute("aria-label") or ""
            return d.current_url.startswith(server.base) and expected in label
        H.wait(d, back_with_certificate, timeout=60, message="back from the provider, its certificate named")
        H.wait(d, "document.body.dataset.ready === '1'", message="viewer ready again")
        self.assertNotIn("code=", d.current_url)
        self.assertEqual(server.ok("GET", "/api/provider-signing")["signer"], expected)

    def sign_through_the_api(self, server):
        """Fills the form, accepts, draws and confirms through the API; the document's signatures."""
        server.ok("PUT", "/api/fields/Name", {"value": "Grace Hopper"})
        server.ok("PUT", "/api/fields/Agree", {"value": True})
        server.ok("POST", "/api/accept")
        points = [{"x": i * 6, "y": 40 + int(25 * math.sin(i / 3)), "t": i * 0.016, "p": 0.5} for i in range(40)]
        server.ok("POST", "/api/capture", {"strokes": [points]})
        self.assertEqual(server.ok("POST", "/api/confirm")["phase"], "editing")
        signatures = server.ok("GET", "/api/validation")["signatures"]
        self.assertEqual(len(signatures), 1)
        return signatures

    def test_1_provider_certificate_signs(self):
        server = self.start("provider")
        self.choose_certificate(server, "Certomancer EC Signer")
        H.shot(self.driver, "provider-1-back")
        # The next signature is the provider's certificate's.
        signatures = self.sign_through_the_api(server)
        self.assertIn("Certomancer EC Signer", str(signatures[0]))
        status, signed = server.api("GET", "/api/download", raw=True)
        self.assertEqual(status, 200)
        H.save_artifact("provider-signed.pdf", signed)

    def test_2_each_signature_authorized_at_the_provider(self):
        server = self.start("provider-oauth2code", ["autograph/signer-oauth"])
        self.choose_certificate(server, "Certomancer Signer")
        self.assertEqual(server.ok("GET", "/api/provider-signing")["authorization"], "perSignature")
        d = self.driver
        server.ok("PUT", "/api/fields/Name", {"value": "Grace Hopper"})
        server.ok("PUT", "/api/fields/Agree", {"value": True})
        d.refresh()
        H.wait(d, "document.body.dataset.ready === '1'", message="viewer ready")
        H.by_css(d, "#tb-accept").click()
        H.wait(d, lambda d: H.visible(d, "#capture-dialog"), message="capture dialog")
        pad = H.by_css(d, "#capture-dialog canvas")
        draw(d, pad, signature_points())
        H.by_css(d, '#capture-dialog [data-action="confirm"]').click()
        H.wait(d, lambda d: H.visible(d, "#preview-dialog"), timeout=60, message="preview dialog")
        H.wait(d, "document.querySelector('#preview-image').naturalWidth > 0", message="preview image")
        self.assertEqual(server.ok("GET", "/api/validation")["signatures"][0]["intact"], False)
        # Sign: to the provider with the hash, back, signed, and on to the viewer.
        H.by_css(d, '#preview-dialog [data-action="confirm"]').click()
        H.wait(d, lambda d: len(server.ok("GET", "/api/validation")["signatures"]) == 1
               and server.ok("GET", "/api/validation")["signatures"][0]["intact"], timeout=60,
               message="the signature made after the provider's authorization")
        H.wait(d, lambda d: d.current_url.rstrip("/") == server.base, timeout=30, message="back in the viewer")
        H.wait(d, "document.body.dataset.ready === '1'", message="viewer ready after signing")
        H.shot(d, "provider-2-signed")
        signature = server.ok("GET", "/api/validation")["signatures"][0]
        self.assertIn("Certomancer Signer", str(signature))

    def test_3_credential_with_a_pin_chosen_in_the_viewer(self):
        server = self.start("provider-explicit", ["autograph/signer"])
        d = self.driver
        d.get(server.link())
        H.wait(d, "document.body.dataset.ready === '1'", message="viewer ready")
        H.wait(d, lambda d: H.visible(d, "#tb-provider"), message="provider button")
        H.by_css(d, "#tb-provider").click()
        # Back from the provider: the account's only credential asks for a PIN and a one-time
        # password, so the viewer opens its chooser at once, nothing chosen yet.
        H.wait(d, lambda d: d.current_url.startswith(server.base) and H.visible(d, "#provider-chooser"),
               timeout=60, message="the credential chooser, back from the provider")
        self.assertIsNone(server.ok("GET", "/api/provider-signing")["signer"])
        self.assertTrue(H.visible(d, "#provider-pin") and H.visible(d, "#provider-otp"))
        H.by_css(d, "#provider-pin").send_keys("1234")
        H.by_css(d, "#provider-otp").send_keys("123456")
        H.shot(d, "provider-3-chooser")
        H.by_css(d, '#provider-chooser [data-action="use"]').click()
        H.wait(d, lambda d: "Certomancer Signer" in (H.by_css(d, "#tb-provider").get_attribute("aria-label") or ""),
               message="the credential named on the provider button")
        state = server.ok("GET", "/api/provider-signing")
        self.assertEqual((state["signer"], state["authorization"]), ("Certomancer Signer", "pin"))
        self.assertNotIn("1234", str(state))
        # The next signature is made with it: the provider checks the PIN and the password then.
        signatures = self.sign_through_the_api(server)
        self.assertIn("Certomancer Signer", str(signatures[0]))
        # The signature made, the account and its signer (with the PIN) are forgotten: the next signer
        # on this document signs in at the provider again.
        H.wait(d, lambda d: server.ok("GET", "/api/provider-signing")["signer"] is None
               and not server.ok("GET", "/api/provider-signing")["credentials"], message="the account forgotten")
        d.refresh()
        H.wait(d, "document.body.dataset.ready === '1'", message="viewer ready again")
        H.wait(d, lambda d: H.by_css(d, "#tb-provider").get_attribute("aria-label") == "Provider certificate",
               message="the button back to the provider")
        self.assertFalse(H.visible(d, "#provider-chooser"))
