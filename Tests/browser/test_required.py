"""Browser tests of the signing paths (see scripts/browser-tests), on a desktop window and a
390×844 phone: a required check box unticked stops every way of starting a signature — the
toolbar's Sign, a signature field's "Sign here", Accept, the HTTP API — each focusing the box,
marked aria-invalid with a visible message, cleared once ticked; then signing works and pypdf
reads the box on. A PDF without a signature field: Sign offers the placement Accept offers, the box
proposed away from the text, landing where the person clicks, on the page clicked, clamped to it."""

import json
import pathlib
import re
import subprocess
import sys
import time
import unittest

from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import harness as H  # noqa: E402
from test_viewer import draw, signature_points  # noqa: E402

SIZES = {"desktop": dict(width=1280, height=900), "phone": dict(width=390, height=844, mobile=True)}


class RequiredFieldTests(H.BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        if not H.URL:
            raise unittest.SkipTest("AUTOGRAPH_URL is not set: run scripts/browser-tests")
        cls.demo = H.demo_pdf()
        if cls.demo is None:
            raise unittest.SkipTest("the demo form's bytes are not known (the server no longer shows it)")

    # ── Helpers ─────────────────────────────────────────────────────────────────────────────

    def click(self, d, selector):
        element = H.by_css(d, selector)
        d.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", element)
        element.click()

    def click_at(self, d, x, y):
        """A click at viewport point (x, y), in CSS pixels."""
        actions = ActionBuilder(d)
        actions.pointer_action.move_to_location(int(x), int(y))
        actions.pointer_action.click()
        actions.perform()

    def client_rect(self, d, element):
        return d.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];",
                                element)

    def show_page(self, d, index):
        """Page `index` in view (the viewer's own scrolling, whichever way its pages run); its client
        rectangle and the viewport's, clipped to each other."""
        d.execute_script("autograph.pages.goTo(arguments[0])", index)
        time.sleep(0.3)
        page = self.client_rect(d, H.by_css(d, f'.page[data-index="{index}"]'))
        viewport = self.client_rect(d, H.by_css(d, "#viewport"))
        return page, [max(page[0], viewport[0]), max(page[1], viewport[1]), min(page[2], viewport[2]), min(page[3], viewport[3])]

    def focused_field(self, d):
        return d.execute_script("return document.activeElement && document.activeElement.dataset.field")

    def agree_marks(self, d):
        """Agree's aria-invalid, its aria-describedby's text, and whether that message is shown."""
        return d.execute_script("""
            const box = document.querySelector('input[data-field="Agree"]');
            const message = box.getAttribute('aria-describedby') && document.getElementById(box.getAttribute('aria-describedby'));
            return [box.getAttribute('aria-invalid'), message ? message.textContent : null,
                    !!message && message.getClientRects().length > 0];""")

    def finish_signature(self, d, prefix):
        """The capture (or the saved signature), the positioning box if any, the preview, the signed dialog."""
        H.wait(d, lambda d: H.visible(d, "#capture-dialog") or H.visible(d, "#choose-signature-dialog")
               or H.visible(d, "#preview-dialog"), timeout=60, message="capture, choice or preview")
        if H.visible(d, "#choose-signature-dialog"):
            d.find_elements(By.CSS_SELECTOR, "#choose-signature-dialog .signature-choice")[0].click()
        elif H.visible(d, "#capture-dialog"):
            pad = H.by_css(d, "#capture-dialog canvas")
            draw(d, pad, [(int(x * 0.6), y) for x, y in signature_points()])
            H.by_css(d, '#capture-dialog [data-action="confirm"]').click()
        H.wait(d, lambda d: H.visible(d, "#preview-dialog"), timeout=90, message="preview dialog")
        H.wait(d, "document.querySelector('#preview-image').naturalWidth > 0", message="preview image")
        H.shot(d, prefix + "-preview")
        H.by_css(d, '#preview-dialog [data-action="confirm"]').click()
        H.wait(d, lambda d: H.visible(d, "#signed-dialog"), timeout=90, message="signed dialog")
        H.shot(d, prefix + "-signed")
        H.by_css(d, '#signed-dialog [data-action="continue"]').click()
        status, signed = H.api("GET", "/api/download", raw=True)
        self.assertEqual(status, 200)
        path = H.save_artifact(prefix + ".pdf", signed)
        code, output, trusted = H.pyhanko_validate(path)
        (H.ARTIFACTS / (prefix + ".pyhanko.txt")).write_text(output)
        self.assertIn("INTACT", output, output[-2000:])
        return signed

    # ── Required fields ─────────────────────────────────────────────────────────────────────

    def required_paths(self, size):
        d = H.new_driver(**SIZES[size])
        try:
            H.open_document(self.demo, f"required-{size}-{time.monotonic_ns()}")
            H.api_ok("PUT", "/api/fields/Name", {"value": "Ada Lovelace"})
            H.open_viewer(d)
            H.wait(d, "document.body.dataset.connected === '1'", message="event stream")
            self.assertEqual(self.agree_marks(d), [None, None, False])
            before = H.api("GET", "/api/download", raw=True)[1]

            def refused(path):
                H.wait(d, lambda d: self.focused_field(d) == "Agree", message=f"{path}: Agree focused")
                invalid, message, shown = self.agree_marks(d)
                self.assertEqual(invalid, "true", path)
                self.assertTrue(message and "tick" in message and shown, (path, message, shown))
                # No dialog: the marks and the banner say it; nothing is being signed.
                self.assertEqual(d.find_elements(By.CSS_SELECTOR, "dialog[open]"), [], path)
                self.assertEqual(H.api_ok("GET", "/api/state")["phase"], "editing", path)
                # The banner says why, below the toolbar (on a phone its buttons take two rows).
                banner, toolbar = d.execute_script(
                    "const b = document.getElementById('banner');"
                    "return [b.hidden ? null : b.getBoundingClientRect().top,"
                    " document.getElementById('toolbar').getBoundingClientRect().bottom];")
                self.assertIsNotNone(banner, path)
                self.assertGreaterEqual(banner, toolbar, path)
                H.shot(d, f"required-{size}-{path}")
                d.execute_script("document.activeElement.blur()")

            for path, selector in (("sign", "#tb-sign"), ("sign-here", 'button[data-field="Signature"]'),
                                   ("accept", "#tb-accept")):
                self.click(d, selector)
                refused(path)
            # The HTTP API (the API token), with the viewer open: refused, and the viewer shows why.
            status, body = H.api("POST", "/api/start-signature", {"field": "Signature"})
            self.assertEqual(status, 409, body)
            self.assertEqual((body["error"]["code"], body["error"]["signoCode"]), ("requiredFieldsEmpty", -129), body)
            self.assertIn("Agree", body["error"]["message"])
            refused("api")
            self.assertEqual(H.api("GET", "/api/download", raw=True)[1], before, "a refused start wrote something")

            # Ticked: the mark and the message go; signing works, and the signed file has the box on.
            self.click(d, 'input[data-field="Agree"]')
            H.wait(d, lambda d: self.agree_marks(d) == [None, None, False], message="marks cleared")
            H.wait(d, "document.getElementById('banner').hidden", message="banner gone once the box is ticked")
            H.wait(d, lambda d: {f["name"]: f["value"] for f in H.api_ok("GET", "/api/fields")}.get("Agree")
                   not in ("", "Off"), message="Agree saved")
            H.shot(d, f"required-{size}-ticked")
            self.click(d, "#tb-sign")
            signed = self.finish_signature(d, f"required-{size}-signed")
            fields = H.pdf_reader(signed).get_fields()
            self.assertNotIn(str(fields["Agree"].get("/V")), ("/Off", "None"))
            self.assertEqual(fields["Name"].get("/V"), "Ada Lovelace")
            # qpdf --json, a second reader: the check box's value in the signed file is its on state.
            out = subprocess.run(["qpdf", "--json", "--json-key=acroform", str(H.ARTIFACTS / f"required-{size}-signed.pdf")],
                                 capture_output=True, text=True, timeout=60).stdout
            agree = [f for f in json.loads(out)["acroform"]["fields"] if f["fullname"] == "Agree"]
            self.assertTrue(agree and agree[0]["value"] not in ("/Off", None), agree)
        finally:
            H.close(d)

    def test_1_required_check_box_desktop(self):
        self.required_paths("desktop")

    def test_2_required_check_box_phone(self):
        self.required_paths("phone")

    # ── No signature field ──────────────────────────────────────────────────────────────────

    def placement(self, size):
        d = H.new_driver(**SIZES[size])
        try:
            H.open_document(H.fieldless_pdf(), f"fieldless-{size}-{time.monotonic_ns()}")
            H.open_viewer(d)
            self.click(d, "#tb-sign")
            # What Accept offers: the signature (drawn or saved), then the box to place.
            H.wait(d, lambda d: H.visible(d, "#capture-dialog") or H.visible(d, "#choose-signature-dialog")
                   or H.visible(d, "#edit-box"), timeout=60, message="capture, choice or box")
            if H.visible(d, "#choose-signature-dialog"):
                d.find_elements(By.CSS_SELECTOR, "#choose-signature-dialog .signature-choice")[0].click()
            elif H.visible(d, "#capture-dialog"):
                pad = H.by_css(d, "#capture-dialog canvas")
                draw(d, pad, [(int(x * 0.6), y) for x, y in signature_points()])
                H.by_css(d, '#capture-dialog [data-action="confirm"]').click()
            H.wait(d, lambda d: H.visible(d, "#edit-box"), timeout=60, message="positioning box")
            self.assertEqual(H.api_ok("GET", "/api/state")["phase"], "positioning")
            H.shot(d, f"fieldless-{size}-1-proposed")
            box = H.by_css(d, "#edit-box")
            proposed = d.execute_script("return arguments[0].pdfRect.slice()", box)
            # Not over the page's text (pdftotext's word boxes, top-left origin, on a 842 pt page).
            path = H.save_artifact(f"fieldless-{size}.pdf", H.fieldless_pdf())
            html = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", str(path), "-"],
                                  capture_output=True, text=True, timeout=60).stdout
            words = [(float(a), 842 - float(d_), float(c), 842 - float(b)) for a, b, c, d_ in
                     re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)"', html)]
            self.assertTrue(words)
            over = [w for w in words if w[0] < proposed[2] and proposed[0] < w[2] and w[1] < proposed[3] and proposed[1] < w[3]]
            self.assertEqual(over, [], (proposed, over))

            def page_of_box():
                return int(d.execute_script("return arguments[0].closest('.page').dataset.index", box))

            # A click near the right edge of page 1: the box goes there, centred on the click's
            # height, clamped to the page.
            page, shown = self.show_page(d, 0)
            y = (shown[1] + shown[3]) / 2
            self.click_at(d, page[2] - 3, y)
            H.wait(d, lambda d: d.execute_script("return arguments[0].pdfRect[2]", box) > 594, message="box at the edge")
            clicked = d.execute_script("return arguments[0].pdfRect.slice()", box)
            at = self.client_rect(d, box)
            self.assertEqual(page_of_box(), 0)
            self.assertAlmostEqual(clicked[2], 595, delta=1, msg=clicked)
            self.assertAlmostEqual(clicked[2] - clicked[0], proposed[2] - proposed[0], delta=1.5, msg=clicked)
            self.assertAlmostEqual((at[1] + at[3]) / 2, y, delta=3, msg=(at, y))
            H.shot(d, f"fieldless-{size}-2-clicked-at-the-edge")

            # A click at the left edge of page 2 (above the floating bar, below the banner): the box
            # follows onto page 2, clamped to its left edge, centred on the click's height.
            page, shown = self.show_page(d, 1)
            y = shown[3] - 130
            self.click_at(d, page[0] + 3, y)
            H.wait(d, lambda d: page_of_box() == 1, message="box on page 2")
            placed = d.execute_script("return arguments[0].pdfRect.slice()", box)
            at = self.client_rect(d, box)
            self.assertAlmostEqual(placed[0], 0, delta=1, msg=placed)
            self.assertAlmostEqual((at[1] + at[3]) / 2, y, delta=3, msg=(at, y))
            self.assertTrue(0 <= placed[1] and placed[3] <= 842, placed)
            H.shot(d, f"fieldless-{size}-3-clicked-on-page-2")
            H.by_css(d, "#box-confirm").click()
            signed = self.finish_signature(d, f"fieldless-{size}-signed")
            # The signed widget is on page 2, where the box was, inside the page.
            reader = H.pdf_reader(signed)
            widgets = [(index, [float(v) for v in annot.get_object()["/Rect"]])
                       for index, page in enumerate(reader.pages) for annot in (page.get("/Annots") or [])
                       if annot.get_object().get("/FT") == "/Sig" or annot.get_object().get("/Parent", {}).get("/FT") == "/Sig"]
            self.assertEqual(len(widgets), 1, widgets)
            index, rect = widgets[0]
            self.assertEqual(index, 1, widgets)
            self.assertTrue(all(abs(a - b) < 2 for a, b in zip(rect, placed)), (rect, placed))
            self.assertTrue(rect[0] >= 0 and rect[1] >= 0 and rect[2] <= 595 and rect[3] <= 842, rect)
        finally:
            H.close(d)

    def test_3_sign_places_a_new_field_desktop(self):
        self.placement("desktop")

    def test_4_sign_places_a_new_field_phone(self):
        self.placement("phone")
