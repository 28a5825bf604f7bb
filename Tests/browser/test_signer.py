"""The signer sees who signs: the capture dialog and the preview say in whose name and under which
issuer the signature is made — the names poppler's pdfsig reads from the signed file and openssl from
the demo's root — and say so when the name typed into the form or the dialog is another."""

import pathlib
import re
import subprocess
import sys
import time
import unittest

from selenium.webdriver.common.keys import Keys

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

    def download_name(self):
        status, headers, _ = H.raw_request("GET", "/api/download", headers={"Authorization": "Bearer " + H.TOKEN,
                                                                             "X-Autograph": "1"})
        self.assertEqual(status, 200)
        disposition = dict((k.lower(), v) for k, v in headers)["content-disposition"]
        return re.search(r'filename="([^"]+)"', disposition).group(1)

    def test_03_finish_after_a_reload_named_download_save_says_saved(self):
        d = H.new_driver()
        try:
            document_id = "finish-" + str(time.monotonic_ns())
            for saved in H.api_ok("GET", "/api/signatures"):
                H.api_ok("DELETE", f"/api/signatures/{saved['id']}")
            H.open_document(self.pdf, document_id)
            H.open_viewer(d)
            self.assertEqual(self.download_name(), f"{document_id}.pdf")
            self.assertFalse(H.visible(d, "#tb-finish"), "nothing signed yet: nothing to finish")
            # Save when everything is kept already: the button says so, and is done.
            H.by_css(d, "#tb-save").click()
            H.wait(d, lambda d: H.by_css(d, "#tb-save").text == "Saved", message="Saved")
            self.assertEqual(H.by_css(d, "#tb-save").get_attribute("aria-label"), "All changes saved")
            self.assertFalse(H.by_css(d, "#tb-save").is_enabled())
            name = H.by_css(d, 'input[data-field="Name"]')
            name.click()
            name.send_keys("Ada")
            H.by_css(d, 'input[data-field="Agree"]').click()
            H.wait(d, lambda d: fields(d).get("Agree") not in ("", "Off"), message="Agree saved")
            H.wait(d, lambda d: H.by_css(d, "#tb-save").is_enabled() and H.by_css(d, "#tb-save").text == "",
                   message="Save offered again after a change")
            H.by_css(d, "#tb-accept").click()
            H.wait(d, lambda d: H.visible(d, "#capture-dialog"), message="capture dialog")
            draw(d, H.by_css(d, "#capture-dialog canvas"), signature_points())
            H.by_css(d, '#capture-dialog [data-action="confirm"]').click()
            H.wait(d, lambda d: H.visible(d, "#preview-dialog"), timeout=60, message="preview")
            H.by_css(d, '#preview-dialog [data-action="confirm"]').click()
            H.wait(d, lambda d: H.visible(d, "#signed-dialog"), timeout=90, message="signed dialog")
            self.assertEqual(self.download_name(), f"{document_id}-signed.pdf")
            self.assertIsNone(H.by_css(d, "#download-link").get_attribute("download") or None)
            # The dialog is gone after a reload: Finish is still there.
            H.open_viewer(d)
            H.wait(d, lambda d: H.visible(d, "#tb-finish"), message="Finish after a reload")
            H.shot(d, "signer-03-finish-offered")
            H.by_css(d, "#tb-finish").click()
            H.wait(d, lambda d: H.visible(d, "#finish-dialog"), message="finish dialog")
            H.by_css(d, '#finish-dialog [data-action="complete"]').click()
            H.wait(d, lambda d: H.api_ok("GET", "/api/state")["phase"] == "finished", message="finished")
            H.wait(d, lambda d: H.visible(d, "#finished-dialog"), message="finished dialog")
            self.assertFalse(H.visible(d, "#tb-finish"))
            # Finished, the fields are locked: each shows the page's own drawing of its value, not a
            # second copy over it (the same pixels with the controls as without them).
            H.by_css(d, '#finished-dialog [data-action="close"]').click()
            H.wait(d, lambda d: not H.visible(d, "#finished-dialog"), message="dialog closed")
            H.wait(d, lambda d: d.execute_script(
                "return document.querySelector('.field[data-field=\"Name\"]')?.classList.contains('read-only')"),
                message="locked fields")
            time.sleep(0.5)
            from PIL import Image, ImageChops, ImageStat
            import io as _io
            region = H.by_css(d, '.field[data-field="Name"]')
            shown = Image.open(_io.BytesIO(region.screenshot_as_png)).convert("RGB")
            d.execute_script("for (const o of document.querySelectorAll('.overlay')) o.style.visibility = 'hidden';")
            bare = Image.open(_io.BytesIO(region.screenshot_as_png)).convert("RGB")
            d.execute_script("for (const o of document.querySelectorAll('.overlay')) o.style.visibility = '';")
            shown.save(H.ARTIFACTS / "signer-03-locked-field.png")
            bare.save(H.ARTIFACTS / "signer-03-page-field.png")
            difference = ImageStat.Stat(ImageChops.difference(shown, bare)).mean
            self.assertLess(max(difference), 6, f"the locked field differs from the page's drawing: {difference}")
        finally:
            H.close(d)

    def test_04_a_refusal_is_confirmed_as_one(self):
        d = H.new_driver()
        try:
            H.open_document(self.pdf, "refuse-" + str(time.monotonic_ns()))
            H.open_viewer(d)
            H.by_css(d, "#tb-refuse").click()
            H.wait(d, lambda d: H.visible(d, "#refuse-dialog"), message="refuse dialog")
            button = H.by_css(d, '#refuse-dialog [data-action="refuse"]')
            self.assertIn("danger", button.get_attribute("class"))
            self.assertNotIn("primary", button.get_attribute("class"))
            button.click()
            H.wait(d, lambda d: H.visible(d, "#preview-dialog"), timeout=60, message="preview of the refusal")
            self.assertEqual(H.by_css(d, "#preview-dialog h2").text, "Check what you refuse")
            confirm = H.by_css(d, '#preview-dialog [data-action="confirm"]')
            self.assertEqual(confirm.text, "Refuse")
            self.assertIn("danger", confirm.get_attribute("class"))
            self.assertNotIn("Sign", [b.text for b in d.find_elements("css selector", "#preview-dialog button")])
            H.shot(d, "signer-04-refusal-preview")
            # After a reload the same words.
            H.open_viewer(d)
            H.wait(d, lambda d: H.visible(d, "#preview-dialog"), timeout=60, message="preview again")
            self.assertEqual(H.by_css(d, "#preview-dialog h2").text, "Check what you refuse")
            H.by_css(d, '#preview-dialog [data-action="cancel"]').click()
            H.wait(d, lambda d: H.api_ok("GET", "/api/state")["phase"] == "editing", message="cancelled")
        finally:
            H.close(d)

    def test_05_filled_fields_locked_by_the_signature_and_the_panel_follows(self):
        d = H.new_driver()
        try:
            for saved in H.api_ok("GET", "/api/signatures"):
                H.api_ok("DELETE", f"/api/signatures/{saved['id']}")
            H.open_document(self.pdf, "lock-" + str(time.monotonic_ns()))
            H.open_viewer(d)
            name = H.by_css(d, 'input[data-field="Name"]')
            name.click()
            name.send_keys("Ada")
            H.by_css(d, 'input[data-field="Agree"]').click()
            H.wait(d, lambda d: fields(d).get("Agree") not in ("", "Off"), message="Agree saved")
            H.wait(d, lambda d: fields(d).get("Name") == "Ada", message="Name saved")
            H.by_css(d, "#tb-accept").click()
            H.wait(d, lambda d: H.visible(d, "#capture-dialog"), message="capture dialog")
            draw(d, H.by_css(d, "#capture-dialog canvas"), signature_points())
            H.by_css(d, '#capture-dialog [data-action="confirm"]').click()
            H.wait(d, lambda d: H.visible(d, "#preview-dialog"), timeout=60, message="preview")
            H.by_css(d, '#preview-dialog [data-action="confirm"]').click()
            H.wait(d, lambda d: H.visible(d, "#signed-dialog"), timeout=90, message="signed dialog")
            H.by_css(d, '#signed-dialog [data-action="continue"]').click()
            # pypdf reads the lock: the fields filled, not the one left empty.
            reader = H.pdf_reader(H.api("GET", "/api/download", raw=True)[1])
            signature = reader.get_fields()["Signature"]["/V"].get_object()
            lock = reader.get_fields()["Signature"].get("/Lock")
            lock = lock.get_object() if lock is not None else None
            references = signature.get("/Reference") or []
            transform = [r.get_object().get("/TransformParams") for r in references]
            params = next((t.get_object() for t in transform if t is not None and t.get("/Action")), lock)
            self.assertIsNotNone(params, "a FieldMDP lock")
            self.assertEqual(params["/Action"], "/Include")
            self.assertEqual(sorted(str(f) for f in params["/Fields"]), ["Agree", "Name"])
            # The viewer locks them; the server refuses a change (-129); the empty field stays open.
            H.wait(d, lambda d: "read-only" in H.by_css(d, '.field[data-field="Name"]').get_attribute("class"),
                   message="Name locked in the viewer")
            status, answer = H.api("PUT", "/api/fields/Name", {"value": "Eve"})
            self.assertEqual(status, 409, answer)
            email = H.by_css(d, 'input[data-field="Email"]')
            email.click()
            email.send_keys("ada@example.org", Keys.TAB)
            H.wait(d, lambda d: fields(d).get("Email") == "ada@example.org", message="Email after signing")
            # The panel follows at once, without a reload: the change after signing is there.
            H.wait(d, lambda d: H.visible(d, "#tb-validation"), message="panel button")
            time.sleep(1)
            H.by_css(d, "#tb-validation").click()
            H.wait(d, lambda d: H.visible(d, "#validation-panel"), message="panel")
            text = H.by_css(d, "#validation-panel").text
            H.shot(d, "signer-05-panel-after-edit")
            self.assertNotIn("No changes since signing", text)
            self.assertIn("Email", text)
        finally:
            H.close(d)

    def test_06_the_preview_zooms_with_sharper_pages(self):
        d = H.new_driver()
        try:
            self.fill_and_start(d, "Ada")
            draw(d, H.by_css(d, "#capture-dialog canvas"), signature_points())
            H.by_css(d, '#capture-dialog [data-action="confirm"]').click()
            H.wait(d, lambda d: H.visible(d, "#preview-dialog"), timeout=60, message="preview")
            H.wait(d, "document.querySelector('#preview-image').naturalWidth > 0", message="preview image")
            size = lambda: d.execute_script(  # noqa: E731
                "const i = document.getElementById('preview-image'); const b = i.parentNode.getBoundingClientRect();"
                "return [i.getBoundingClientRect().width, i.naturalWidth, b.width];")
            shown, natural, box = size()
            self.assertEqual(H.by_css(d, "#preview-zoom-level").text, "Fit")
            # The empty fields are marked as the viewer shows them; the filled ones are not.
            marked = sorted(m.get_attribute("title") for m in d.find_elements("css selector", "#preview-dialog .preview-empty"))
            self.assertEqual(len(marked), 2, marked)  # e-mail and country, left empty
            self.assertTrue(any("e-mail" in t.lower() for t in marked), marked)
            self.assertFalse(any(t.lower().startswith("name") for t in marked), marked)
            email = d.execute_script("""
                const m = [...document.querySelectorAll('#preview-dialog .preview-empty')].find((e) => /e-mail/i.test(e.title));
                const i = document.getElementById('preview-image').getBoundingClientRect(), r = m.getBoundingClientRect();
                return [(r.left - i.left) / i.width, (r.top - i.top) / i.height];""")
            viewer = d.execute_script("""
                const f = document.querySelector('.field[data-field="Email"]').getBoundingClientRect();
                const p = document.querySelector('.page[data-index="0"]').getBoundingClientRect();
                return [(f.left - p.left) / p.width, (f.top - p.top) / p.height];""")
            self.assertAlmostEqual(email[0], viewer[0], delta=0.01)
            self.assertAlmostEqual(email[1], viewer[1], delta=0.01)
            H.by_css(d, "#preview-zoom-in").click()
            H.by_css(d, "#preview-zoom-in").click()
            self.assertEqual(H.by_css(d, "#preview-zoom-level").text, "225 %")
            H.wait(d, lambda d: size()[1] > natural * 1.5, message="a sharper page")
            zoomed = size()
            self.assertGreater(zoomed[0], box * 2, "the page drawn larger than the box: it scrolls")
            self.assertIn("/tile?scale=", H.by_css(d, "#preview-image").get_attribute("src"))
            H.shot(d, "signer-06-preview-zoomed")
            H.by_css(d, "#preview-zoom-fit").click()
            self.assertEqual(H.by_css(d, "#preview-zoom-level").text, "Fit")
            self.assertLessEqual(size()[0], box + 1)
            H.by_css(d, '#preview-dialog [data-action="cancel"]').click()
            H.wait(d, lambda d: H.api_ok("GET", "/api/state")["phase"] == "editing", message="cancelled")
        finally:
            H.close(d)


if __name__ == "__main__":
    unittest.main()
