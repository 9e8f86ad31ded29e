"""Small things a first reader hears: the d_k slider read aloud as "d sub k", and chapter 13's
"Reproduces" line without a literal backslash. (Titles, navigation and captions are checked on
every page in test_pages.py.)
"""

from __future__ import annotations

import pytest

from bookdev import widgets as wd

pytestmark = pytest.mark.browser


def test_d_k_slider_is_read_as_d_sub_k(open_page) -> None:  # noqa: ANN001
    page, _ = open_page("book/06_scaling.html")  # the sharpening slider of "Why divide by √dₖ"
    wd.wait_for_widgets(page)
    slider = page.get_by_role("slider", name="d sub k", exact=True)
    assert slider.count() >= 1, "no slider named 'd sub k'"
    assert slider.first.get_attribute("aria-valuetext").startswith("d sub k = ")


def test_reproduces_line_has_no_literal_backslash(open_page) -> None:  # noqa: ANN001
    page, _ = open_page("book/13_multihead_causal.html")
    spoken = page.evaluate("""() => {
      const p = [...document.querySelectorAll("p")].find((e) => e.innerText.startsWith("Reproduces:"));
      return p ? [...p.querySelectorAll("mjx-assistive-mml")].map((m) => m.textContent).join(" | ") : "";
    }""")
    assert "heads" in spoken, f"no typeset math naming num_heads in the Reproduces line: {spoken!r}"
    assert "\\" not in spoken, f"the Reproduces line shows a literal backslash: {spoken!r}"
