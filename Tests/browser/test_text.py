"""The viewer's text layer against poppler: every word pdftotext finds on a page is a span of the
layer, in the same order, over the same box (`pdftotext -bbox`, in the page's displayed space), on
desktop and on a 390×844 phone, on an upright and on a rotated page; the browser selects and copies
it as text."""

import io
import pathlib
import re
import subprocess
import sys
import time
import unittest

from selenium.webdriver.common.actions.action_builder import ActionBuilder

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import harness as H  # noqa: E402


def poppler_words(path, page=1):
    """(text, xMin, yMin, xMax, yMax) of each word on `page` (from 1), and the page's displayed size."""
    output = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(path), "-"],
                            capture_output=True, text=True, timeout=60).stdout
    size = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', output)
    words = [(html_unescape(text), float(a), float(b), float(c), float(d)) for a, b, c, d, text in re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', output)]
    return words, (float(size.group(1)), float(size.group(2)))


def html_unescape(text):
    import html
    return html.unescape(text)


def rotated(pdf, degrees):
    from pypdf import PdfReader, PdfWriter
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.pages[0].rotate(degrees)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


LAYER_WORDS = """
const page = document.querySelector('.page[data-index="0"]');
const box = page.getBoundingClientRect();
return [...page.querySelectorAll('.textlayer > span')].filter((s) => s.style.display !== 'none').map((s) => {
  const r = s.getBoundingClientRect();
  return [s.textContent.trim(), r.left - box.left, r.top - box.top, r.right - box.left, r.bottom - box.top,
          box.width, box.height];
});"""


def overlap(a, b):
    """Intersection over union of two boxes (x0, y0, x1, y1)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


class TextLayerTests(H.BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        if not H.URL:
            raise unittest.SkipTest("AUTOGRAPH_URL is not set: run scripts/browser-tests")
        cls.pdf = H.demo_pdf()

    def check_layer(self, driver, path, name, turned=False):
        """The layer of page 1 beside poppler's words: same words in order, boxes overlapping.
        pdftotext gives the page's size unrotated and the words' boxes as the page is shown."""
        expected, (width, height) = poppler_words(path)
        if turned:
            width, height = height, width
        self.assertGreater(len(expected), 20, "the page has text for poppler")
        H.wait(driver, lambda d: len(d.execute_script(LAYER_WORDS)) >= len(expected), message="text layer")
        words = driver.execute_script(LAYER_WORDS)
        self.assertEqual([w[0] for w in words], [w[0] for w in expected])
        scale = words[0][5] / width
        self.assertAlmostEqual(words[0][6] / height, scale, delta=scale * 0.01, msg="the page keeps its proportions")
        scores = []
        for ours, theirs in zip(words, expected):
            box = [value / scale for value in ours[1:5]]
            scores.append(overlap(box, theirs[1:5]))
        H.shot(driver, name)
        close = sum(score >= 0.6 for score in scores)
        # Glyph boxes differ a little between renderers (ascent, descent, advance rounding): each
        # word must overlap poppler's, nearly all closely.
        self.assertGreaterEqual(min(scores), 0.3, scores)
        self.assertGreaterEqual(close / len(scores), 0.95, scores)
        return words

    def test_01_words_over_poppler_boxes_and_copied_as_text(self):
        d = H.new_driver()
        try:
            H.open_document(self.pdf, "text-" + str(time.monotonic_ns()))
            H.open_viewer(d)
            path = H.save_artifact("text-01-demo.pdf", self.pdf)
            words = self.check_layer(d, path, "text-01-desktop")
            # Selected with the mouse from the first word to the fourth, the browser copies the words.
            start, end = d.execute_script("""
                const spans = document.querySelectorAll('.page[data-index="0"] .textlayer > span');
                const a = spans[0].getBoundingClientRect(), b = spans[3].getBoundingClientRect();
                return [[a.left + 1, a.top + a.height / 2], [b.right - 2, b.top + b.height / 2]];""")
            actions = ActionBuilder(d)
            actions.pointer_action.move_to_location(int(start[0]), int(start[1])).pointer_down()
            actions.pointer_action.move_to_location(int(end[0]), int(end[1])).pointer_up()
            actions.perform()
            selected = d.execute_script("return String(getSelection())")
            self.assertTrue(selected.startswith(words[0][0]), selected)
            self.assertIn(words[2][0], selected)
            self.assertNotIn(words[5][0], selected.split())
            # Lines are apart in what is copied; words within a line by one space.
            d.execute_script(
                "getSelection().selectAllChildren(document.querySelector('.page[data-index=\"0\"] .textlayer'))")
            text = d.execute_script("return String(getSelection())")
            poppler = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(path), "-"], capture_output=True,
                                     text=True, timeout=60).stdout
            first_line = next(line for line in poppler.splitlines() if line.strip())
            self.assertEqual(text.splitlines()[0].strip(), " ".join(first_line.split()))
            self.assertEqual(text.split(), poppler.split())
            H.shot(d, "text-01-selected")
        finally:
            H.close(d)

    def test_02_phone_and_rotated_page(self):
        d = H.new_driver(390, 844, mobile=True)
        try:
            H.open_document(self.pdf, "text-phone-" + str(time.monotonic_ns()))
            H.open_viewer(d)
            self.check_layer(d, H.save_artifact("text-02-demo.pdf", self.pdf), "text-02-phone")
            turned = rotated(self.pdf, 90)
            H.open_document(turned, "text-rotated-" + str(time.monotonic_ns()))
            H.open_viewer(d)
            self.check_layer(d, H.save_artifact("text-02-rotated.pdf", turned), "text-02-rotated", turned=True)
        finally:
            H.close(d)

    def test_03_zoom_moves_the_layer_with_the_page(self):
        d = H.new_driver()
        try:
            H.open_document(self.pdf, "text-zoom-" + str(time.monotonic_ns()))
            H.open_viewer(d)
            path = H.save_artifact("text-03-demo.pdf", self.pdf)
            before = self.check_layer(d, path, "text-03-before")
            H.by_css(d, "#tb-zoom-in").click()
            H.wait(d, lambda d: d.execute_script(LAYER_WORDS)[0][5] > before[0][5] * 1.05, message="zoomed in")
            time.sleep(0.3)
            self.check_layer(d, path, "text-03-zoomed")
        finally:
            H.close(d)

    def test_04_preview_carries_the_text_to_be_signed(self):
        from test_viewer import draw, signature_points
        d = H.new_driver()
        try:
            H.open_document(self.pdf, "text-preview-" + str(time.monotonic_ns()))
            H.open_viewer(d)
            name = H.by_css(d, 'input[data-field="Name"]')
            name.click()
            name.send_keys("Grace Hopper")
            H.by_css(d, 'input[data-field="Agree"]').click()
            H.wait(d, lambda d: {f["name"]: f["value"] for f in H.api_ok("GET", "/api/fields")}.get("Name")
                   == "Grace Hopper", message="Name saved")
            H.wait(d, lambda d: {f["name"]: f["value"] for f in H.api_ok("GET", "/api/fields")}.get("Agree")
                   not in ("", "Off"), message="Agree saved")
            H.by_css(d, "#tb-accept").click()
            H.wait(d, lambda d: H.visible(d, "#capture-dialog"), message="capture dialog")
            draw(d, H.by_css(d, "#capture-dialog canvas"), signature_points())
            H.by_css(d, '#capture-dialog [data-action="confirm"]').click()
            H.wait(d, lambda d: H.visible(d, "#preview-dialog"), timeout=60, message="preview dialog")
            summary = H.by_css(d, "#preview-dialog .preview-text-block summary")
            self.assertEqual(summary.text, "Text of page 1 as it will be signed")
            summary.click()
            H.wait(d, lambda d: "Grace Hopper" in H.by_css(d, "#preview-dialog .preview-text").text,
                   message="the preview's text")
            text = H.by_css(d, "#preview-dialog .preview-text").text
            # The prepared bytes' text, as poppler reads the same page once signed or now: every word
            # poppler finds in the original is there, and the filled name.
            original = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(H.save_artifact("text-04.pdf", self.pdf)),
                                       "-"], capture_output=True, text=True, timeout=60).stdout
            for word in original.split():
                self.assertIn(word, text.split())
            H.shot(d, "text-04-preview")
            H.by_css(d, '#preview-dialog [data-action="cancel"]').click()
            H.wait(d, lambda d: H.api_ok("GET", "/api/state")["phase"] == "editing", message="cancelled")
        finally:
            H.close(d)


if __name__ == "__main__":
    unittest.main()
