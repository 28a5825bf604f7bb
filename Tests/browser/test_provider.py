"""Browser test of signing with the person's own certificate at their trust service provider (CSC
API v2, OAuth 2.0 authorization code with PKCE; docs/web-api.md, "Provider signing").

The provider is Tests/Scripts/csc_v2_server.py (a spec-following CSC v2 test server; the person
"consents" at once) on loopback, reached as http://localhost:PORT while the viewer is
http://127.0.0.1:PORT: another site, so the browser comes back from the provider in a cross-site
navigation that carries none of the viewer's SameSite=Strict cookie. The test runs its own
`autograph serve --csc http://localhost:PORT --csc-client-id … --csc-secret-file …`
(AUTOGRAPH_BINARY). It shows that the viewer's "Provider certificate" button takes the browser to
the provider and back to a working viewer that names the provider's certificate, and that the
signature made next is by that certificate."""

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

CLIENT = "autograph-tests"
SECRET = "client-secret-for-tests"


class Provider:
    """The CSC v2 test server on a free port of 127.0.0.1."""

    def __init__(self):
        self.work = pathlib.Path(tempfile.mkdtemp(prefix="autograph-provider-"))
        self.process = subprocess.Popen(
            [sys.executable, str(H.ROOT / "Tests/Scripts/csc_v2_server.py"), "--config",
             str(H.ROOT / "Tests/Fixtures/certomancer/certomancer.yml"), "--client-id", CLIENT,
             "--client-secret", SECRET, "--log", str(H.ARTIFACTS / "provider-requests.log")],
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


class ProviderSigningTests(H.BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        if not BINARY:
            raise unittest.SkipTest("AUTOGRAPH_BINARY is not set: run scripts/browser-tests")
        if subprocess.run([sys.executable, "-c", "import csc_dummy.csc_dummy_server"]).returncode != 0:
            raise unittest.SkipTest("certomancer-csc-dummy is not installed (scripts/install-deps test)")
        H.ARTIFACTS.mkdir(parents=True, exist_ok=True)
        cls.provider = Provider()
        secret = cls.provider.work / "secret"
        secret.write_text(SECRET + "\n")
        cls.server = Server(name="provider", extra=[
            "--csc", f"http://localhost:{cls.provider.port}", "--csc-client-id", CLIENT,
            "--csc-secret-file", str(secret)])
        cls.driver = H.new_driver(1280, 900)

    @classmethod
    def tearDownClass(cls):
        H.close(cls.driver)
        cls.server.close()
        cls.provider.close()

    def test_provider_certificate_signs(self):
        d = self.driver
        d.get(self.server.link())
        H.wait(d, "document.body.dataset.ready === '1'", message="viewer ready")
        H.wait(d, lambda d: H.visible(d, "#tb-provider"), message="provider button")
        self.assertIsNone(self.server.ok("GET", "/api/provider-signing")["signer"])
        H.by_css(d, "#tb-provider").click()

        def back_with_certificate(d):
            label = d.find_element(By.ID, "tb-provider").get_attribute("aria-label") or ""
            return d.current_url.startswith(self.server.base) and "Certomancer EC Signer" in label
        H.wait(d, back_with_certificate, timeout=60, message="back from the provider, its certificate named")
        H.wait(d, "document.body.dataset.ready === '1'", message="viewer ready again")
        H.shot(d, "provider-1-back")
        self.assertNotIn("code=", d.current_url)
        self.assertEqual(self.server.ok("GET", "/api/provider-signing")["signer"], "Certomancer EC Signer")

        # The next signature is the provider's certificate's.
        self.server.ok("PUT", "/api/fields/Name", {"value": "Grace Hopper"})
        self.server.ok("PUT", "/api/fields/Agree", {"value": True})
        self.server.ok("POST", "/api/accept")
        points = [{"x": i * 6, "y": 40 + int(25 * math.sin(i / 3)), "t": i * 0.016, "p": 0.5} for i in range(40)]
        self.server.ok("POST", "/api/capture", {"strokes": [points]})
        self.assertEqual(self.server.ok("POST", "/api/confirm")["phase"], "editing")
        signatures = self.server.ok("GET", "/api/validation")["signatures"]
        self.assertEqual(len(signatures), 1)
        self.assertIn("Certomancer EC Signer", str(signatures[0]))
        status, signed = self.server.api("GET", "/api/download", raw=True)
        self.assertEqual(status, 200)
        H.save_artifact("provider-signed.pdf", signed)
