"""Drive the book's sliders on a built page: find the rendered widgets, move their inputs the way a
reader does (an ``input`` event on the range element), read the numbers they show, and give every
control any input a reader could type (:func:`any_input_problems`).

Used by tests/browser/test_widgets.py and benchmarks/bench_widgets.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from attnlib.widgets import slider_math
from bookdev.browser import SITE
from bookdev.site import STATE_MIME, VIEW_MIME, load, wait_for_widgets

# Each rendered widget: its model id, the class that made it (anywidget's "_anywidget_id") and its
# synced state (without the ES module and CSS). The manager puts each view just before its script tag.
_FIND_WIDGETS = """([stateMime, viewMime]) => {
  const state = JSON.parse(document.querySelector(`script[type="${stateMime}"]`).textContent).state;
  return [...document.querySelectorAll(`script[type="${viewMime}"]`)].map((view, index) => {
    const id = JSON.parse(view.textContent).model_id;
    const s = { ...state[id].state };
    delete s._esm; delete s._css;
    const area = view.previousElementSibling;
    const rendered = Boolean(area && area.querySelector(".attnw"));
    return { index, model_id: id, kind: (s._anywidget_id || "").split(".").pop(), state: s, rendered };
  });
}"""

_EMBEDDED_ESM = """([stateMime, id]) =>
  JSON.parse(document.querySelector(`script[type="${stateMime}"]`).textContent).state[id].state._esm"""


@dataclass
class Widget:
    """One rendered slider on a page: ``kind`` is the Python class name, ``state`` its synced state."""

    page: Any
    index: int
    model_id: str
    kind: str
    state: dict[str, Any]
    rendered: bool

    @property
    def root(self) -> str:
        """A JS expression for the widget's root element (.attnw), the index-th view of the page."""
        return (f"document.querySelectorAll('script[type=\"{VIEW_MIME}\"]')[{self.index}]"
                ".previousElementSibling.querySelector('.attnw')")

    def set_range(self, name: str, value: float) -> None:
        """Move the range input ``name`` to ``value`` as a reader does (value, then an input event)."""
        self.page.evaluate(
            f"""([name, value]) => {{
              const input = {self.root}.querySelector(`input[data-name="${{name}}"]`);
              input.value = String(value);
              input.dispatchEvent(new Event("input", {{ bubbles: true }}));
            }}""",
            [name, value],
        )

    def set_checkbox(self, name: str, checked: bool) -> None:
        self.page.evaluate(
            f"""([name, checked]) => {{
              const input = {self.root}.querySelector(`input[data-name="${{name}}"]`);
              if (input.checked !== checked) input.click();
            }}""",
            [name, checked],
        )

    def texts(self) -> dict[str, str]:
        """Text of every element with a ``data-name`` in the widget (inputs give their value)."""
        return self.page.evaluate(
            f"""() => Object.fromEntries([...{self.root}.querySelectorAll("[data-name]")].map(
                 (e) => [e.dataset.name, e.tagName === "INPUT" ? (e.type === "checkbox" ? String(e.checked) : e.value) : e.textContent]))"""
        )

    def counts(self) -> list[int]:
        """The histogram's bar counts (spread widget)."""
        return self.page.evaluate(f"() => [...{self.root}.querySelectorAll('rect[data-count]')].map((r) => Number(r.dataset.count))")

    def all_text(self) -> str:
        return self.page.evaluate(f"() => {self.root}.textContent + ' ' + [...{self.root}.querySelectorAll('title')].map(t => t.textContent).join(' ')")

    def is_hidden(self, name: str) -> bool:
        return self.page.evaluate(f"() => {self.root}.querySelector('[data-name=\"{name}\"]').hidden")

    def embedded_esm(self) -> str:
        return self.page.evaluate(_EMBEDDED_ESM, [STATE_MIME, self.model_id])


def find_widgets(page: Any) -> list[Widget]:
    """Every widget view on the page, rendered or not (``Widget.rendered``)."""
    return [Widget(page=page, **w) for w in page.evaluate(_FIND_WIDGETS, [STATE_MIME, VIEW_MIME])]


def load_widget_page(page: Any, site_url: str, path: str) -> list[Widget]:
    """Open the built page ``path`` (e.g. ``"book/15_decoding.html"``) in ``page``, wait until every
    widget on it rendered, and return them. Fails with a clear message if the page is not built."""
    if not (SITE / path).is_file():
        raise AssertionError(f"{path} is not in the built site: run 'make book'")
    load(page, f"{site_url}/{path}")
    wait_for_widgets(page)  # load() waits for rendered widgets; this also fails on a page without any
    return find_widgets(page)


#: A widget card's background and ink in each theme of the site (attnlib/widgets/widgets.css).
CARD_COLOURS = {"light": ["rgb(255, 255, 255)", "rgb(34, 34, 34)"], "dark": ["rgb(29, 33, 39)", "rgb(232, 232, 232)"]}


def the_one(widgets: list[Widget], kind: str, where: str) -> Widget:
    """The one widget of class ``kind`` among ``widgets`` (of page ``where``), or a failure naming what is there."""
    found = [w for w in widgets if w.kind == kind]
    assert len(found) == 1, f"expected one {kind} on {where}, found {[w.kind for w in widgets]}"
    return found[0]


def phone_problems(page: Any, w: Widget) -> list[str]:
    """The page at 390 x 844 CSS px with widget ``w`` in view: what is wrong with the card's width (it
    overflows itself, or it is wider than the screen), or nothing."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate(f"() => {w.root}.scrollIntoView()")
    own, card, screen = page.evaluate(f"() => [{w.root}.scrollWidth, {w.root}.clientWidth, document.documentElement.clientWidth]")
    problems = [f"the card overflows its own width at 390 px: {own} > {card}"] if own > card + 1 else []
    return problems + ([f"the card is wider than the 390 px screen: {card} > {screen}"] if card > screen else [])


#: What a reader may type or paste into each kind of control (:func:`any_input_problems`).
ANY_INPUT = {
    "text": ["", "   ", "x" * 2000, "日本語 ünïcödé 🙂 <b>bold</b> \u202eevil", "bank " * 300],
    "number": ["", "-5", "1e12", "2.5", "-0", "99999999999999999999999", "NaN"],
    "range": ["-1e9", "1e9", "", "0.5", "NaN"],
    "checkbox": [True, False, True],
}

# Every control of every widget on the page gets every value of ANY_INPUT (an input and a change event
# each), then every button is pressed once; after each, the widget must show no NaN, Infinity or
# undefined, the page must be no wider than the window, and the card no wider than itself.
_ANY_INPUT = """(values) => {
  const problems = [];
  const look = (root, what) => {
    const text = root.innerText;
    for (const bad of ["NaN", "Infinity", "undefined"]) if (text.includes(bad)) problems.push(`${what}: shows ${bad}`);
    const page = document.scrollingElement.scrollWidth, win = document.documentElement.clientWidth;
    if (page > win + 1) problems.push(`${what}: the page is ${page} px wide in a ${win} px window`);
    if (root.scrollWidth > root.clientWidth + 1) problems.push(`${what}: the card overflows (${root.scrollWidth} > ${root.clientWidth})`);
  };
  const cards = [...document.querySelectorAll(".attnw")];
  cards.forEach((root) => {
    const title = (root.querySelector(".attnw-title") || root).textContent.slice(0, 40);
    for (const el of root.querySelectorAll("input, select, textarea")) {
      const kind = el.tagName === "INPUT" ? el.type : "text";
      const tried = el.tagName === "SELECT" ? [...el.options].map((o) => o.value).concat(["", "no such option"]) : (values[kind] || []);
      for (const v of tried) {
        if (el.disabled) break;
        if (kind === "checkbox") el.checked = v; else el.value = String(v);
        el.dispatchEvent(new Event("input", { bubbles: true }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
        look(root, `${title} / ${el.dataset.name || el.name || kind} = ${JSON.stringify(String(v)).slice(0, 40)}`);
      }
    }
    for (const b of root.querySelectorAll("button")) {
      if (b.disabled) continue;
      b.click();
      look(root, `${title} / button ${b.textContent.slice(0, 30)}`);
    }
  });
  return { cards: cards.length, problems };
}"""


def any_input_problems(page: Any) -> tuple[int, list[str]]:
    """Give every control of every widget card on ``page`` every value of :data:`ANY_INPUT`, then press
    every button: ``(number of cards, what went wrong after which input)``."""
    out = page.evaluate(_ANY_INPUT, ANY_INPUT)
    return out["cards"], out["problems"]


def number(text: str) -> float:
    """The number in a readout such as ``"0.873"``, ``"d_k = 64"`` or ``"-1.250"``."""
    m = re.search(r"-?\d+(?:\.\d+)?", text.replace("\u2212", "-"))
    if m is None:
        raise AssertionError(f"no number in {text!r}")
    return float(m.group())


def numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text.replace("\u2212", "-"))]


# --- slider positions to try, and what attnlib says the widget should show there -------------------
def positions(steps: int) -> list[int]:
    """Both ends, the middle, and a few positions in between."""
    return sorted({0, 1, steps // 7, steps // 3, steps // 2, (2 * steps) // 3, steps - 1, steps})


def expected_sharpening(state: dict[str, Any], position: int) -> dict[str, Any]:
    d_k = slider_math.d_k_at(position)
    return slider_math.sharpening_numbers(d_k, seed=state["seed"], n_keys=state["n_keys"], scores=state["scores"] or None)


def expected_temperature(state: dict[str, Any], position: int) -> dict[str, Any]:
    return slider_math.temperature_numbers(state["scores"], slider_math.temperature_at(position))


def expected_spread(state: dict[str, Any], position: int, scaled: bool) -> dict[str, Any]:
    return slider_math.spread_numbers(slider_math.dim_at(position), seed=state["seed"], scaled=scaled)


def expected_geometric(state: dict[str, Any], query: list[float]) -> dict[str, Any]:
    return slider_math.geometric_numbers(query, state["key_vectors"], state["value_vectors"])
