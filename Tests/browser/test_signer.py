"""The signer sees who signs: the capture dialog and the preview say in whose name and under which
issuer the signature is made — the names poppler's pdfsig reads from the signed file and openssl from
the demo's root — and say so when the name typed into the form or the dialog is another."""

import pathlib
import re
import subprocess
import sys
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import harness as H  # noqa: E402
from test_viewer import draw, signature_points  # noqa: E402


def fields(d):
    return {f["name"]: f["value"] for f in H.api_ok("GET", "/api/fields")}


class SignerTests(H.BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        if not H.URL:
            raise unittest.SkipTest("AUTOGRAPH_URL is not set: run scripts/browser-tests")
        cls.pdf = H.demo_pdf()

    def fill_and_start(self, d, name):
        # No saved signature to offer instead of the pad.
        for saved in H.api_ok("GET", "/api/signatures"):
            H.api_ok("DELETE", f"/api/signatures/{saved['id']}")
        H.open_document(self.pdf, "signer-" + str(time.monotonic_ns()))
        H.open_viewer(d)
        field = H.by_css(d, 'input[data-field="Name"]')
        field.click()
        field.send_keys(name)
        H.by_css(d, 'input[data-field="Agree"]').click()
        H.wait(d, lambda d: fields(d).get("Name") == name, message="Name saved")
        H.wait(d, lambda d: fields(d).get("Agree") not in ("", "Off"), message="Agree saved")
        H.by_css(d, "#tb-accept").click()
        H.wait(d, lambda d: H.visible(d, "#capture-dialog"), message="capture dialog")

    def test_01_who_signs_in_the_dialog_the_preview_and_the_file(self):
        d = H.new_driver()
        try:
            self.fill_and_start(d, "Grace Hopper")
            note = H.by_css(d, "#capture-dialog #signing-as").text
            match = re.match(r"Signing as (.+?)(?: — certificate issued by (.+))?\n", note + "\n")
            self.assertTrue(match, note)
            name, issuer = match.group(1), match.group(2)
            self.assertNotEqual(name, "Grace Hopper")
            # The form's name is another person's: said, naming both.
            warning = H.by_css(d, "#capture-dialog #signer-warning")
            self.assertTrue(warning.is_displayed())
            self.assertIn("Grace Hopper", warning.text)
            self.assertIn(name, warning.text)
            H.shot(d, "signer-01-capture")
            draw(d, H.by_css(d, "#capture-dialog canvas"), signature_points())
            H.by_css(d, '#capture-dialog [data-action="confirm"]').click()
            H.wait(d, lambda d: H.visible(d, "#preview-dialog"), timeout=60, message="preview dialog")
            self.assertIn(f"Signing as {name}", H.by_css(d, "#preview-dialog #signing-as").text)
            self.assertTrue(H.by_css(d, "#preview-dialog #signer-warning").is_displayed())
            H.shot(d, "signer-01-preview")
            H.by_css(d, '#preview-dialog [data-action="confirm"]').click()
            H.wait(d, lambda d: H.visible(d, "#signed-dialog") or H.visible(d, "#finished-dialog"), timeout=90,
                   message="signed")
            signed = H.save_artifact("signer-01-signed.pdf", H.api("GET", "/api/download", raw=True)[1])
            # poppler reads the same name from the signature; openssl the issuer from the demo's root.
            _, report = H.pdfsig(signed)
            self.assertIn(f"Signer Certificate Common Name: {name}", report)
            root = H.STORE / "demo-root.pem"
            if issuer and root.exists():
                subject = subprocess.run(["openssl", "x509", "-in", str(root), "-noout", "-subject", "-nameopt", "RFC2253,-esc_msb"],
                                         capture_output=True, text=True, timeout=30).stdout
                self.assertIn(f"CN={issuer}", subject)
        finally:
            H.close(d)

    def test_02_the_same_name_raises_nothing_and_a_typed_other_one_does(self):
        d = H.new_driver()
        try:
            signer = H.api_ok("GET", "/api/state")["signer"]
            self.assertTrue(signer and signer["name"])
            # The same name, in other letters' case and spacing: no warning.
            self.fill_and_start(d, "  " + signer["name"].upper() + " ")
            warning = H.by_css(d, "#capture-dialog #signer-warning")
            self.assertFalse(warning.is_displayed())
            # A name typed in the dialog that is another: said at once.
            H.by_css(d, "#capture-name").send_keys("Someone Else")
            H.wait(d, lambda d: warning.is_displayed() and "Someone Else" in warning.text, message="typed name warning")
            H.shot(d, "signer-02-typed-other")
            [b for b in d.find_elements("css selector", "#capture-dialog .modal-actions button") if b.text == "Cancel"][0].click()
            H.wait(d, lambda d: H.api_ok("GET", "/api/state")["phase"] == "editing", message="cancelled")
        finally:
            H.close(d)


if __name__ == "__main__":
    unittest.main()
