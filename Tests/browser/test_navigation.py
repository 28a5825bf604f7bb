"""Moving through a document of several pages as a new reader does: it scrolls continuously top to
bottom by default; the wheel moves through pages in every layout (turning them one at a time when
the viewer shows a page at a time); Home and End go to the first and last page; previous and next
page buttons; the zoom shows its level; Fit width and Fit page are two named actions."""

import io
import pathlib
import sys
import time
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import harness as H  # noqa: E402

PAGES = 5


def five_pages():
    """Five A4 pages, each saying its number (written by pypdf, not by us)."""
    import pypdf
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject
    writer = pypdf.PdfWriter()
    for number in range(1, PAGES + 1):
        page = writer.add_blank_page(width=595, height=842)
        font = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                                 NameObject("/BaseFont"): NameObject("/Helvetica")})
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})})
        content = DecodedStreamObject()
        content.set_data(f"BT /F1 36 Tf 72 760 Td (Page {number}) Tj ET".encode())
        page[NameObject("/Contents")] = writer._add_object(content)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def page_number(d):
    return int(d.execute_script("return document.getElementById('page-number').value"))


def page_rects(d):
    return d.execute_script("""return [...document.querySelectorAll('.page')].map((p) => {
        const r = p.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; });""")


def zoom_percent(d):
    text = H.by_css(d, "#zoom-level").text
    return int(text.replace("%", "").strip())


class NavigationTests(H.BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        if not H.URL:
            raise unittest.SkipTest("AUTOGRAPH_URL is not set: run scripts/browser-tests")

    def open(self, d, name):
        H.open_document(five_pages(), f"{name}-{time.monotonic_ns()}")
        H.open_viewer(d)
        H.wait(d, lambda d: len(page_rects(d)) == PAGES and page_rects(d)[0][3] > 100, message="pages laid out")

    def wheel(self, d, amount):
        viewport = H.by_css(d, "#viewport")
        ActionChains(d).scroll_from_origin(ScrollOrigin.from_element(viewport), 0, amount).perform()

    def test_01_continuous_by_default_wheel_home_end_buttons(self):
        d = H.new_driver()
        try:
            self.open(d, "nav")
            rects = page_rects(d)
            # One column, top to bottom.
            for above, below in zip(rects, rects[1:]):
                self.assertAlmostEqual(above[0], below[0], delta=1)
                self.assertGreater(below[1], above[1] + above[3] - 1)
            self.assertEqual(page_number(d), 1)
            self.assertTrue(H.by_css(d, "#tb-prev-page").get_attribute("disabled") is not None)
            H.shot(d, "nav-01-first")
            # The wheel scrolls through the pages.
            for _ in range(8):
                self.wheel(d, 600)
                time.sleep(0.1)
            H.wait(d, lambda d: page_number(d) >= 2, message="the wheel moved to a later page")
            # Home and End, on the document.
            H.by_css(d, "#viewport").click()
            ActionChains(d).send_keys(Keys.END).perform()
            H.wait(d, lambda d: page_number(d) == PAGES, message="End: the last page")
            self.assertTrue(H.by_css(d, "#tb-next-page").get_attribute("disabled") is not None)
            H.shot(d, "nav-01-end")
            ActionChains(d).send_keys(Keys.HOME).perform()
            H.wait(d, lambda d: page_number(d) == 1, message="Home: the first page")
            # The buttons.
            H.by_css(d, "#tb-next-page").click()
            H.wait(d, lambda d: page_number(d) == 2, message="next page")
            H.by_css(d, "#tb-next-page").click()
            H.wait(d, lambda d: page_number(d) == 3, message="next page again")
            H.by_css(d, "#tb-prev-page").click()
            H.wait(d, lambda d: page_number(d) == 2, message="previous page")
            self.assertGreater(page_rects(d)[1][1], -5, "page 2 is at the top of the view")
        finally:
            H.close(d)

    def test_02_zoom_level_and_the_two_fits(self):
        d = H.new_driver()
        try:
            self.open(d, "nav-zoom")
            width = page_rects(d)[0][2]
            # By default (continuous, vertical) the page's width fits, but no larger than 125 %: on
            # this 1280-pixel window that is 125 %, which neither fit button claims.
            viewport_width = d.execute_script("return document.getElementById('viewport').clientWidth")
            self.assertGreater((viewport_width - 32) / 595, 1.25)
            self.assertEqual(zoom_percent(d), 125)
            self.assertAlmostEqual(zoom_percent(d), width / 595 * 100, delta=1.5)
            self.assertEqual(H.by_css(d, "#tb-fit-width").get_attribute("aria-pressed"), "false")
            self.assertEqual(H.by_css(d, "#tb-fit-page").get_attribute("aria-pressed"), "false")
            H.by_css(d, "#tb-fit-page").click()
            H.wait(d, lambda d: H.by_css(d, "#tb-fit-page").get_attribute("aria-pressed") == "true", message="fit page")
            rect = page_rects(d)[0]
            viewport = d.execute_script("const v = document.getElementById('viewport'); return [v.clientWidth, v.clientHeight];")
            self.assertLessEqual(rect[3], viewport[1] + 1, "the whole page fits")
            self.assertAlmostEqual(zoom_percent(d), rect[2] / 595 * 100, delta=1.5)
            fit_page = zoom_percent(d)
            H.by_css(d, "#tb-zoom-in").click()
            H.wait(d, lambda d: zoom_percent(d) > fit_page, message="zoomed in")
            self.assertAlmostEqual(zoom_percent(d) / fit_page, 1.25, delta=0.03)
            self.assertEqual(H.by_css(d, "#tb-fit-page").get_attribute("aria-pressed"), "false")
            H.shot(d, "nav-02-zoomed")
            H.by_css(d, "#tb-fit-width").click()
            H.wait(d, lambda d: abs(zoom_percent(d) - page_rects(d)[0][2] / 595 * 100) < 1.5
                   and H.by_css(d, "#tb-fit-width").get_attribute("aria-pressed") == "true", message="fit width")
            # The width fitted: the page spans the viewport but for the margins.
            self.assertGreater(page_rects(d)[0][2], viewport_width - 40)
        finally:
            H.close(d)

    def test_03_one_page_at_a_time_the_wheel_turns_pages(self):
        d = H.new_driver()
        try:
            H.api_ok("POST", "/api/configuration", {"viewer": {"continuousScrolling": False, "verticalScrolling": False}})
            self.open(d, "nav-paged")
            self.assertEqual(page_number(d), 1)
            self.wheel(d, 120)
            H.wait(d, lambda d: page_number(d) == 2, message="the wheel turned to page 2")
            time.sleep(0.5)
            self.wheel(d, 120)
            H.wait(d, lambda d: page_number(d) == 3, message="the wheel turned to page 3")
            H.shot(d, "nav-03-paged-page-3")
            time.sleep(0.5)
            self.wheel(d, -120)
            H.wait(d, lambda d: page_number(d) == 2, message="the wheel turned back to page 2")
            rect = page_rects(d)[1]
            viewport = d.execute_script("return document.getElementById('viewport').getBoundingClientRect().left")
            self.assertGreater(rect[0], viewport - 2, "page 2 is in view")
        finally:
            H.api_ok("POST", "/api/configuration", {"viewer": {"continuousScrolling": True, "verticalScrolling": True}})
            H.close(d)

    def test_04_search_as_you_type_whole_word_and_accents(self):
        import re
        import subprocess
        import unicodedata
        import pypdf
        from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject
        writer = pypdf.PdfWriter()
        page = writer.add_blank_page(width=595, height=842)
        font = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                                 NameObject("/BaseFont"): NameObject("/Helvetica"),
                                 NameObject("/Encoding"): NameObject("/WinAnsiEncoding")})
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})})
        content = DecodedStreamObject()
        content.set_data("BT /F1 18 Tf 72 760 Td (Résumé, resume; résumés and presume.) Tj ET".encode("cp1252"))
        page[NameObject("/Contents")] = writer._add_object(content)
        out = io.BytesIO()
        writer.write(out)
        pdf = out.getvalue()
        # What to find, counted on poppler's text: accents folded or not, whole words or not.
        text = subprocess.run(["pdftotext", str(H.save_artifact("nav-04.pdf", pdf)), "-"], capture_output=True,
                              text=True, timeout=60).stdout
        fold = lambda t: "".join(c for c in unicodedata.normalize("NFD", t) if not unicodedata.combining(c)).lower()
        expected = {
            (False, False): len(re.findall("resume", fold(text))),
            (True, False): len(re.findall(r"\bresume\b", fold(text))),
            (True, True): len(re.findall(r"\bresume\b", text.lower())),
        }
        self.assertEqual(list(expected.values()), [4, 2, 1])
        d = H.new_driver()
        try:
            H.open_document(pdf, f"nav-search-{time.monotonic_ns()}")
            H.open_viewer(d)
            H.by_css(d, "#tb-search").click()
            # Typed, never submitted: the results come as the letters do.
            H.by_css(d, "#search-input").send_keys("resume")
            count = lambda d: H.by_css(d, "#search-count").text
            H.wait(d, lambda d: count(d) == f"1 / {expected[(False, False)]}", message="found as typed")
            self.assertTrue(d.find_elements("css selector", ".hit.current"))
            H.by_css(d, "#search-whole-word").click()
            H.wait(d, lambda d: count(d) == f"1 / {expected[(True, False)]}", message="whole words")
            H.by_css(d, "#search-diacritics").click()
            H.wait(d, lambda d: count(d) == f"1 / {expected[(True, True)]}", message="accents matched")
            H.shot(d, "nav-04-search")
            mode = H.api_ok("GET", "/api/state")["mode"]
            self.assertEqual(len(mode["results"]), expected[(True, True)])
            # Emptied, the search is over: no highlight, the session's mode back to browsing.
            field = H.by_css(d, "#search-input")
            field.send_keys(Keys.CONTROL, "a")
            field.send_keys(Keys.BACKSPACE)
            H.wait(d, lambda d: not d.find_elements("css selector", ".hit")
                   and H.api_ok("GET", "/api/state")["mode"].get("name") != "search", message="search cleared")
        finally:
            H.close(d)

    def test_05_sidebar_thumbnails_and_bookmarks_by_mouse_and_keyboard(self):
        import pypdf
        reader = pypdf.PdfReader(io.BytesIO(five_pages()))
        writer = pypdf.PdfWriter(clone_from=reader)
        one = writer.add_outline_item(title="Chapter 1", page_number=0, is_open=False)
        writer.add_outline_item(title="Section 1.1", page_number=1, parent=one)
        writer.add_outline_item(title="Chapter 2", page_number=3)
        out = io.BytesIO()
        writer.write(out)
        d = H.new_driver()
        try:
            H.open_document(out.getvalue(), f"nav-sidebar-{time.monotonic_ns()}")
            H.open_viewer(d)
            H.wait(d, lambda d: len(page_rects(d)) == PAGES, message="pages")
            toggle = H.by_css(d, "#tb-sidebar")
            self.assertEqual(toggle.get_attribute("aria-expanded"), "false")
            toggle.click()
            self.assertEqual(toggle.get_attribute("aria-expanded"), "true")
            thumbs = lambda d: d.find_elements("css selector", "#sidebar .thumb")
            H.wait(d, lambda d: len(thumbs(d)) == PAGES, message="a thumbnail a page")
            H.wait(d, lambda d: d.execute_script(
                "return [...document.querySelectorAll('#sidebar .thumb img')].slice(0, 3).every((i) => i.naturalWidth > 0)"),
                message="thumbnails drawn")
            self.assertEqual(thumbs(d)[0].get_attribute("aria-current"), "page")
            H.shot(d, "nav-05-thumbnails")
            thumbs(d)[3].click()
            H.wait(d, lambda d: page_number(d) == 4, message="thumbnail 4 goes to page 4")
            H.wait(d, lambda d: thumbs(d)[3].get_attribute("aria-current") == "page", message="page 4 marked")
            # By keyboard: the thumbnails are one tab stop, moved through with the arrows.
            thumbs(d)[3].send_keys(Keys.ARROW_UP)
            self.assertEqual(d.switch_to.active_element.get_attribute("aria-label"), "Page 3")
            d.switch_to.active_element.send_keys(Keys.ENTER)
            H.wait(d, lambda d: page_number(d) == 3, message="Enter on thumbnail 3")
            # The bookmarks tab, by the arrow key on the tabs.
            H.by_css(d, "#sidebar-tab-pages").send_keys(Keys.ARROW_RIGHT)
            self.assertEqual(d.switch_to.active_element.get_attribute("id"), "sidebar-tab-outline")
            H.wait(d, lambda d: H.visible(d, "#sidebar .outline-item"), message="bookmarks")
            titles = [e.text for e in d.find_elements("css selector", "#sidebar .outline-item") if e.is_displayed()]
            self.assertEqual(titles, ["Chapter 1", "Chapter 2"])
            H.by_css(d, "#sidebar .outline-toggle").click()
            H.wait(d, lambda d: "Section 1.1" in [e.text for e in d.find_elements("css selector", "#sidebar .outline-item")
                                                  if e.is_displayed()], message="the chapter opened")
            H.shot(d, "nav-05-bookmarks")
            [e for e in d.find_elements("css selector", "#sidebar .outline-item") if e.text == "Chapter 2"][0].click()
            H.wait(d, lambda d: page_number(d) == 4, message="Chapter 2 is on page 4")
            [e for e in d.find_elements("css selector", "#sidebar .outline-item") if e.text == "Section 1.1"][0].click()
            H.wait(d, lambda d: page_number(d) == 2, message="Section 1.1 is on page 2")
            toggle.click()
            self.assertFalse(H.visible(d, "#sidebar"))
        finally:
            H.close(d)


if __name__ == "__main__":
    unittest.main()
