"""Browser test of the signature panel's three verdicts against a running `autograph serve` (see
scripts/browser-tests): a signature of the server's own demo identity (valid, "trusted by this demo
server only"), a document signed elsewhere by a key under a root the server does not trust
(amber "Signed — signer not trusted") and a signed document whose signed bytes were changed (red
"Not valid"). Each state is screenshotted into .build/browser-artifacts/ and the same file is
judged by pyHanko and pdfsig, tools we did not write."""

import datetime
import io
import math
import pathlib
import subprocess
import sys
import tempfile
import time
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import harness as H  # noqa: E402

# The colours of viewer.css: green, amber, red (as getComputedStyle writes them).
GREEN, AMBER, RED = "rgb(10, 107, 47)", "rgb(146, 64, 14)", "rgb(179, 38, 30)"


def signed_elsewhere(pdf):
    """`pdf` signed by pyHanko in a new field on page 1 with a P-256 key whose certificate (key usage
    digitalSignature and nonRepudiation) is issued by a root made here: a signer this server's trust
    anchors know nothing of. Returns the signed bytes."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import fields, signers

    now = datetime.datetime.now(datetime.timezone.utc)

    def name(common):
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common),
                          x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Elsewhere Test Ltd")])

    def usage(sign, ca):
        return x509.KeyUsage(digital_signature=sign, content_commitment=sign, key_encipherment=False,
                             data_encipherment=False, key_agreement=False, key_cert_sign=ca, crl_sign=ca,
                             encipher_only=False, decipher_only=False)

    def certificate(subject, issuer, public_key, signing_key, ca):
        return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(public_key)
                .serial_number(x509.random_serial_number())
                .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=30))
                .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
                .add_extension(usage(not ca, ca), critical=True)
                .sign(signing_key, hashes.SHA256()))

    root_key = ec.generate_private_key(ec.SECP256R1())
    root = certificate(name("Elsewhere Root CA"), name("Elsewhere Root CA"), root_key.public_key(), root_key, True)
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = certificate(name("Grace Elsewhere"), root.subject, key.public_key(), root_key, False)
    with tempfile.TemporaryDirectory() as directory:
        paths = {label: pathlib.Path(directory) / f"{label}.pem" for label in ("key", "leaf", "root")}
        paths["key"].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                   serialization.NoEncryption()))
        paths["leaf"].write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
        paths["root"].write_bytes(root.public_bytes(serialization.Encoding.PEM))
        signer = signers.SimpleSigner.load(str(paths["key"]), str(paths["leaf"]), ca_chain_files=(str(paths["root"]),))
    output = io.BytesIO()
    signers.sign_pdf(
        IncrementalPdfFileWriter(io.BytesIO(pdf)),
        signers.PdfSignatureMetadata(field_name="Elsewhere", subfilter=fields.SigSeedSubFilter.PADES),
        signer=signer, new_field_spec=fields.SigFieldSpec("Elsewhere", box=(360, 40, 560, 90), on_page=0),
        output=output)
    return output.getvalue()


def sign_with_demo_identity(pdf):
    """Opens `pdf` (the demo form) under a new id and signs it through the API with the server's
    demo identity: fields filled, accepted, a drawn signature, confirmed. Returns the signed bytes."""
    H.open_document(pdf, "verdict-valid-" + str(time.monotonic_ns()))
    for saved in H.api_ok("GET", "/api/signatures"):
        H.api_ok("DELETE", f"/api/signatures/{saved['id']}")
    H.api_ok("PUT", "/api/fields/Name", {"value": "Ada Lovelace"})
    H.api_ok("PUT", "/api/fields/Agree", {"value": True})
    H.api_ok("POST", "/api/accept")
    points = [{"x": i * 6, "y": 40 + int(25 * math.sin(i / 3)), "t": i * 0.016, "p": 0.5} for i in range(40)]
    H.api_ok("POST", "/api/capture", {"strokes": [points]})
    confirmed = H.api_ok("POST", "/api/confirm")
    if confirmed.get("phase") != "editing":
        raise AssertionError(f"not signed: {confirmed}")
    status, signed = H.api("GET", "/api/download", raw=True)
    if status != 200 or not signed.startswith(b"%PDF-"):
        raise AssertionError(f"GET /api/download → {status}")
    return signed


def changed_signed_byte(signed):
    """`signed` with one byte inside its signed range changed: the header's version digit."""
    data = bytearray(signed)
    digit = data.index(b"%PDF-1.") + len(b"%PDF-1.")
    data[digit] = ord("4") if data[digit] != ord("4") else ord("5")
    return bytes(data)


class VerdictPanelTests(H.BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        if not H.URL:
            raise unittest.SkipTest("AUTOGRAPH_URL is not set: run scripts/browser-tests")
        cls.demo = H.demo_pdf()
        if cls.demo is None:
            raise unittest.SkipTest("the demo form's bytes are not at hand (the server no longer shows it)")
        cls.driver = H.new_driver()

    @classmethod
    def tearDownClass(cls):
        H.close(cls.driver)

    def open_panel(self, shot):
        """Opens the viewer and its signature panel; returns (the toolbar button, the first signature's item)."""
        d = self.driver
        H.open_viewer(d)
        H.wait(d, lambda d: H.visible(d, "#tb-validation"), message="signature panel button")
        button = H.by_css(d, "#tb-validation")
        button.click()
        H.wait(d, lambda d: H.visible(d, "#validation-panel .validation-list > li"), message="signature panel")
        H.shot(d, shot)
        return button, H.by_css(d, "#validation-panel .validation-list > li")

    def colour(self, element):
        return self.driver.execute_script("return getComputedStyle(arguments[0]).color;", element)

    def close_panel(self):
        d = self.driver
        H.by_css(d, '#validation-panel [data-action="close"]').click()
        H.wait(d, lambda d: not H.visible(d, "#validation-panel"), message="panel closed")

    def open_details_by_keyboard(self, item, shot):
        """Focuses the item's Details control with Tab from the element before it, opens it with
        Enter, and returns the <details> element (open)."""
        d = self.driver
        details = item.find_element(By.CSS_SELECTOR, "details.signature-details")
        summary = details.find_element(By.CSS_SELECTOR, "summary")
        self.assertEqual(summary.text, "Details")
        self.assertIsNone(details.get_attribute("open"), "the details start folded")
        self.assertFalse(item.find_element(By.CSS_SELECTOR, "details dd.trust").is_displayed())
        # The close button of the dialog comes after; focus the panel's first control, then Tab to Details.
        d.execute_script("arguments[0].setAttribute('tabindex', '-1'); arguments[0].focus();",
                         item.find_element(By.CSS_SELECTOR, ".explanation"))
        for _ in range(10):
            if d.switch_to.active_element == summary:
                break
            ActionChains(d).send_keys(Keys.TAB).perform()
        self.assertEqual(d.switch_to.active_element, summary, "Details is reached with Tab")
        ActionChains(d).send_keys(Keys.ENTER).perform()
        H.wait(d, lambda d: details.get_attribute("open") is not None, message="details opened with Enter")
        H.shot(d, shot)
        return details

    def test_1_valid_demo_identity(self):
        """The demo identity's signature: valid in green, trusted by this demo server only — and, as
        pyHanko and pdfsig show, by nothing else."""
        signed = sign_with_demo_identity(self.demo)
        path = H.save_artifact("verdicts-1-demo-signed.pdf", signed)
        button, item = self.open_panel("verdicts-1-valid-demo")
        self.assertEqual(item.get_attribute("data-verdict"), "valid")
        self.assertEqual(item.get_attribute("data-trusted-by"), "demo")
        self.assertEqual(button.get_attribute("data-tone"), "good")
        verdict = item.find_element(By.CSS_SELECTOR, ".verdict")
        self.assertEqual(verdict.text, "Valid — trusted by this demo server only")
        self.assertEqual(self.colour(verdict), GREEN)
        self.assertIn("nothing else trusts", item.find_element(By.CSS_SELECTOR, ".explanation").text)
        details = self.open_details_by_keyboard(item, "verdicts-1-valid-demo-details")
        self.assertIn("this demo server’s own root only", details.find_element(By.CSS_SELECTOR, "dd.trust").text)
        self.close_panel()
        # Trusting the demo root, pyHanko says trusted; without it, pyHanko and pdfsig say untrusted.
        code, output, trusted = H.pyhanko_validate(path)
        self.assertTrue(trusted)
        self.assertIn("INTACT:TRUSTED", output, output[-2000:])
        alone = subprocess.run(["pyhanko", "sign", "validate", "--no-strict-syntax", str(path)],
                               capture_output=True, text=True, timeout=120)
        self.assertIn("INTACT:UNTRUSTED", alone.stdout, alone.stdout + alone.stderr)
        _, report = H.pdfsig(path)
        self.assertIn("Signature is Valid.", report)
        self.assertNotIn("Certificate is Trusted.", report)
        self.assertEqual(H.console(self.driver), [])

    def test_2_untrusted_signer(self):
        """A document signed elsewhere, by a key under a root this server does not trust: amber
        "Signed — signer not trusted", a plain sentence, the X.509 detail behind Details."""
        signed = signed_elsewhere(self.demo)
        path = H.save_artifact("verdicts-2-signed-elsewhere.pdf", signed)
        H.open_document(signed, "verdict-untrusted-" + str(time.monotonic_ns()))
        button, item = self.open_panel("verdicts-2-untrusted")
        self.assertEqual(item.get_attribute("data-verdict"), "untrusted")
        self.assertEqual(button.get_attribute("data-tone"), "warn")
        self.assertIn("signer not trusted", button.get_attribute("aria-label"))
        verdict = item.find_element(By.CSS_SELECTOR, ".verdict")
        self.assertEqual(verdict.text, "Signed — signer not trusted")
        self.assertEqual(verdict.get_attribute("data-tone"), "warn")
        self.assertEqual(self.colour(verdict), AMBER)
        sentence = item.find_element(By.CSS_SELECTOR, ".explanation").text
        self.assertIn("unchanged", sentence)
        self.assertIn("cannot be confirmed", sentence)
        self.assertNotIn("Not valid", item.text)
        # OpenSSL's reason is folded away until Details is opened (by keyboard).
        reason = H.api_ok("GET", "/api/validation")["signatures"][0]["trustReason"]
        self.assertTrue(reason)
        self.assertNotIn(reason, item.text)
        details = self.open_details_by_keyboard(item, "verdicts-2-untrusted-details")
        self.assertIn(reason, details.find_element(By.CSS_SELECTOR, "dd.trust").text)
        self.assertIn("Elsewhere Root CA", details.text)
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()
        H.wait(self.driver, lambda d: details.get_attribute("open") is None, message="details folded again with Enter")
        self.close_panel()
        code, output, _ = H.pyhanko_validate(path)
        self.assertIn("INTACT:UNTRUSTED", output, output[-2000:])
        _, report = H.pdfsig(path)
        self.assertIn("Signature is Valid.", report)
        self.assertNotIn("Certificate is Trusted.", report)
        self.assertEqual(H.console(self.driver), [])

    def test_3_changed_bytes(self):
        """The demo identity's signed document with a signed byte changed: red "Not valid"."""
        signed = (H.ARTIFACTS / "verdicts-1-demo-signed.pdf")
        source = signed.read_bytes() if signed.exists() else sign_with_demo_identity(self.demo)
        changed = changed_signed_byte(source)
        path = H.save_artifact("verdicts-3-changed.pdf", changed)
        H.open_document(changed, "verdict-invalid-" + str(time.monotonic_ns()))
        button, item = self.open_panel("verdicts-3-invalid")
        self.assertEqual(item.get_attribute("data-verdict"), "invalid")
        self.assertEqual(button.get_attribute("data-tone"), "bad")
        verdict = item.find_element(By.CSS_SELECTOR, ".verdict")
        self.assertEqual(verdict.text, "Not valid")
        self.assertEqual(self.colour(verdict), RED)
        self.assertIn("broken", item.find_element(By.CSS_SELECTOR, ".explanation").text)
        details = self.open_details_by_keyboard(item, "verdicts-3-invalid-details")
        self.assertIn("changed", details.text)
        self.close_panel()
        code, output, _ = H.pyhanko_validate(path)
        self.assertIn("INVALID", output, output[-2000:])
        _, report = H.pdfsig(path)
        self.assertIn("Digest Mismatch.", report)
        self.assertEqual(H.console(self.driver), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
