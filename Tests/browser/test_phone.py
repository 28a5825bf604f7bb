"""The viewer on a 390×844 phone: the toolbar in one row with Accept and Refuse labelled and the rest
in a More menu; every target at least 24×24 CSS pixels (WCAG 2.2, 2.5.8), the toolbar's 44; inputs
at 16 px or more (a phone's browser zooms into smaller ones); axe-core 4.x without a violation."""

import pathlib
import sys
import time
import unittest

from selenium.webdriver.common.keys import Keys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import harness as H  # noqa: E402

TARGETS = """
return [...document.querySelectorAll('button, a[href], input, select, [role="tab"]')]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden' && !e.closest('[hidden]'))
  .filter((e) => !e.closest('.page') && !e.closest('.visually-hidden'))
  .map((e) => { const r = e.getBoundingClientRect(); return [e.id || e.className || e.tagName, r.width, r.height,
                e.closest('#toolbar') !== null]; });"""


class PhoneTests(H.BrowserTestCase):
    @classmethod
    def setUpClass(cls):
        if not H.URL:
            raise unittest.SkipTest("AUTOGRAPH_URL is not set: run scripts/browser-tests")
        cls.pdf = H.demo_pdf()

    def test_01_one_row_labelled_more_menu_targets_and_inputs(self):
        d = H.new_driver(390, 844, mobile=True)
        try:
            H.open_document(self.pdf, "phone-" + str(time.monotonic_ns()))
            H.open_viewer(d)
            H.wait(d, lambda d: H.visible(d, "#tb-more"), message="the More button")
            width, client, height = d.execute_script(
                "const t = document.getElementById('toolbar'); return [t.scrollWidth, t.clientWidth, t.offsetHeight];")
            self.assertLessEqual(width, client, "nothing of the toolbar is scrolled out of view")
            self.assertLessEqual(height, 60, "one row")
            self.assertEqual(H.by_css(d, "#tb-accept").text, "Accept")
            self.assertEqual(H.by_css(d, "#tb-refuse").text, "Refuse")
            self.assertFalse(H.visible(d, "#tb-search"), "search is in the menu")
            H.shot(d, "phone-01-toolbar")
            for name, w, h, in_toolbar in d.execute_script(TARGETS):
                self.assertGreaterEqual(min(w, h), 44 if in_toolbar else 24, f"{name}: {w}×{h}")
            H.by_css(d, "#tb-more").click()
            self.assertEqual(H.by_css(d, "#tb-more").get_attribute("aria-expanded"), "true")
            H.wait(d, lambda d: H.visible(d, "#tb-menu #tb-search"), message="search in the menu")
            for name, w, h, _ in d.execute_script(TARGETS):
                self.assertGreaterEqual(min(w, h), 24, f"{name}: {w}×{h}")
            H.shot(d, "phone-01-menu")
            # Escape closes it and gives the focus back; a choice in it closes it too.
            d.switch_to.active_element.send_keys(Keys.ESCAPE)
            self.assertFalse(H.visible(d, "#tb-menu"))
            self.assertEqual(d.switch_to.active_element.get_attribute("id"), "tb-more")
            H.by_css(d, "#tb-more").click()
            H.by_css(d, "#tb-menu #tb-search").click()
            self.assertFalse(H.visible(d, "#tb-menu"))
            H.wait(d, lambda d: H.visible(d, "#search-input"), message="the search bar")
            sizes = d.execute_script("""return [...document.querySelectorAll('#toolbar input, #searchbar input')]
                .filter((e) => e.getClientRects().length && e.type !== 'checkbox')
                .map((e) => [e.id, parseFloat(getComputedStyle(e).fontSize)]);""")
            self.assertTrue(sizes)
            for name, size in sizes:
                self.assertGreaterEqual(size, 16, name)
        finally:
            H.close(d)

    def test_03_a_narrow_window_widened_gets_its_buttons_back(self):
        d = H.new_driver(390, 844)
        try:
            H.open_viewer(d)
            H.wait(d, lambda d: H.visible(d, "#tb-more") and not H.visible(d, "#toolbar #tb-search"),
                   message="narrow: the More menu")
            d.set_window_size(1280, 900)
            H.wait(d, lambda d: H.visible(d, "#toolbar #tb-search") and not H.visible(d, "#tb-more"),
                   message="the toolbar whole again")
            # In the order they were: search before the zoom, the pager last but for More.
            order = d.execute_script("return [...document.querySelectorAll('#toolbar button[id]')].map((b) => b.id)")
            self.assertLess(order.index("tb-back"), order.index("tb-sign"))
            self.assertLess(order.index("tb-search"), order.index("tb-zoom-out"))
            self.assertLess(order.index("tb-zoom-out"), order.index("tb-next-page"))
        finally:
            H.close(d)

    def test_02_axe_on_the_phone(self):
        d = H.new_driver(390, 844, mobile=True)
        try:
            H.open_document(self.pdf, "phone-axe-" + str(time.monotonic_ns()))
            H.open_viewer(d)
            H.wait(d, lambda d: H.visible(d, "#tb-more"), message="the More button")
            for phase in ("page", "menu"):
                if phase == "menu":
                    H.by_css(d, "#tb-more").click()
                from selenium_axe_python import Axe
                Axe(d).inject()
                results = d.execute_async_script(
                    "const done = arguments[arguments.length - 1];"
                    "axe.run(document, {rules: {'target-size': {enabled: true}}}).then(done, (e) => done({error: String(e)}));")
                self.assertTrue(results["testEngine"]["version"].startswith("4."))
                violations = [f"{v['id']}: {[n['target'] for n in v['nodes']][:4]}" for v in results["violations"]]
                (H.ARTIFACTS / f"axe-phone-{phase}.txt").write_text("\n".join(violations))
                self.assertEqual(violations, [], phase)
        finally:
            H.close(d)

    def test_04_skip_link_and_a_toolbar_of_one_stop(self):
        d = H.new_driver()
        try:
            H.open_document(self.pdf, "keys-" + str(time.monotonic_ns()))
            H.open_viewer(d)
            H.wait(d, lambda d: d.find_elements("css selector", 'input[data-field="Name"]'), message="fields")
            active = lambda: d.switch_to.active_element  # noqa: E731
            from selenium.webdriver.common.action_chains import ActionChains
            ActionChains(d).send_keys(Keys.TAB).perform()
            self.assertEqual(active().get_attribute("id"), "skip-link")
            self.assertTrue(active().is_displayed())
            H.shot(d, "phone-04-skip-link")
            ActionChains(d).send_keys(Keys.ENTER).perform()
            # The first required field still empty.
            self.assertEqual(active().get_attribute("data-field"), "Name")
            # The toolbar: one Tab stop for its buttons, the arrows inside it.
            H.by_css(d, "#skip-link").send_keys("")
            ActionChains(d).send_keys(Keys.TAB).perform()
            first = active().get_attribute("id")
            self.assertTrue(first.startswith("tb-"), first)
            ActionChains(d).send_keys(Keys.ARROW_RIGHT).perform()
            second = active().get_attribute("id")
            self.assertNotEqual(second, first)
            self.assertTrue(second.startswith("tb-"), second)
            ActionChains(d).send_keys(Keys.END).perform()
            last = active().get_attribute("id")
            ActionChains(d).send_keys(Keys.HOME).perform()
            self.assertEqual(active().get_attribute("id"), first)
            ActionChains(d).send_keys(Keys.ARROW_LEFT).perform()
            self.assertEqual(active().get_attribute("id"), last, "the arrows wrap")
            ActionChains(d).send_keys(Keys.TAB).perform()
            self.assertFalse(active().get_attribute("id").startswith("tb-") and active().tag_name == "button",
                             "Tab leaves the row of buttons")
            stops = d.execute_script(
                "return [...document.querySelectorAll('#toolbar button')].filter((b) => b.tabIndex === 0 && b.getClientRects().length).length")
            self.assertEqual(stops, 1)
        finally:
            H.close(d)


if __name__ == "__main__":
    unittest.main()
