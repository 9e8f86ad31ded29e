"""Drive the "continue the text" widget of "Attention on real text" on a built page and compare it with its
Python twin (``ContinueText.numbers()`` on the page's own stored weights). Used by
tests/browser/test_continue_text_widget.py and tests/browser/test_widgets.py (the shared checks).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from attnlib.widgets import ContinueText
from bookdev import widgets as wd

PAGE = "book/21_real_text.html"
LOGIT_RTOL = 1e-9  # float64 on both sides agrees to rounding (the issue asks 1e-9 relative)
LOGIT_ATOL = 1e-12  # and for a logit within 1e-3 of zero, where a relative difference means nothing, 1e-12
TOL = 0.5e-3 + 1e-9  # a number printed with 3 decimals
SYNCED = ("prompt", "temperature", "top_k", "top_p", "seed", "steps")


def find(widgets: list[wd.Widget]) -> wd.Widget:
    return wd.the_one(widgets, "ContinueText", PAGE)


def twin(w: wd.Widget, widget: ContinueText | None = None, **traits: Any) -> ContinueText:
    """The widget in Python, rebuilt from the page's embedded state (or ``widget``, one rebuilt before,
    which keeps its float64 model), with ``traits`` changed."""
    widget = ContinueText.from_state(w.state) if widget is None else widget
    for name, value in traits.items():
        setattr(widget, name, value)
    return widget


def result(w: wd.Widget) -> dict[str, Any]:
    """What the page shows now (the numbers of the widget's ``result()``)."""
    return w.page.evaluate(f"() => {w.root}.result()")


def page_numbers(w: wd.Widget, states: list[dict[str, Any]], rows: bool = True) -> list[dict[str, Any]]:
    """What the page computes for each synced state (prompt, temperature, top_k, top_p, seed, steps), in one
    visit: the page's own ``numbers`` (the reading, run and rule its view draws with); without the heads'
    rows unless ``rows``."""
    return w.page.evaluate(f"""([states, rows]) => states.map((s) => {{
      const r = {w.root}.numbers(s);
      if (!rows) delete r.rows;
      return r; }})""", [states, rows])


def compare(page: dict[str, Any], ref: dict[str, Any], what: str) -> float:
    """The page's reading of the prompt, its characters, logits (to 1e-9 relative), candidates,
    probabilities and every head's rows (where the page sent them) equal Python's; returns the largest relative logit
    difference (relative to 1e-3 for a logit nearer zero)."""
    if "error" in ref:
        assert page == {"error": ref["error"]}, what
        return 0.0
    assert "error" not in page, (what, page["error"])
    assert (page["prompt"], page["note"]) == (ref["prompt"], ref["note"]), what
    assert page["new"] == ref["new"], f"{what}: page wrote {page['new']!r}, Python {ref['new']!r}"
    assert len(page["logits"]) == len(ref["logits"]) == len(page["new"]), what
    worst = 0.0
    for k, (logits, ref_logits) in enumerate(zip(page["logits"], ref["logits"], strict=True)):
        np.testing.assert_allclose(logits, ref_logits, rtol=LOGIT_RTOL, atol=LOGIT_ATOL, err_msg=f"{what}, character {k + 1}")
        worst = max(worst, float(np.max(np.abs(np.asarray(logits) - ref_logits) / np.maximum(np.abs(ref_logits), 1e-3))))
        assert page["candidates"][k] == list(ref["candidates"][k]), f"{what}, character {k + 1}"
        np.testing.assert_allclose(page["probs"][k], ref["probs"][k], atol=1e-9, rtol=0)
        if "rows" in page:
            np.testing.assert_allclose(page["rows"][k], ref["rows"][k], atol=1e-9, rtol=0)
    return worst


def check_continue(w: wd.Widget) -> None:
    """The page as loaded shows the text, the top five and every head's row Python computes."""
    page, ref = result(w), twin(w).numbers()
    compare(page, ref, "the page as loaded")
    assert ref["new"], "the chapter's widget should open with characters written"
    t = w.texts()
    assert t["story"].startswith(ref["prompt"] + ref["new"]), (t["story"][:80], ref["prompt"] + ref["new"])
    last, vocab = len(ref["new"]) - 1, w.state["vocab"]
    label = {"\n": "↵", " ": "·"}
    for j in range(5):
        c = vocab[ref["candidates"][last][j]]
        assert t[f"top-{j}-word"] == label.get(c, c)
        assert abs(wd.number(t[f"top-{j}-prob"]) - ref["probs"][last][j]) <= TOL
    rows = ref["rows"][last]  # (blocks, heads, read)
    for b in range(rows.shape[0]):
        for a in range(rows.shape[1]):
            shown = w.page.evaluate(f"() => [...{w.root}.querySelectorAll('[data-name^=\"b{b + 1}-h{a + 1}-\"]')]"
                                    ".filter((e) => /-\\d+$/.test(e.dataset.name) && !e.hidden).length")
            assert shown == rows.shape[2], (b, a, shown)
            best = int(np.argmax(rows[b, a]))
            assert abs(wd.number(t[f"b{b + 1}-h{a + 1}-max"].rsplit(",", 1)[1]) - rows[b, a, best]) <= 0.5e-2 + 1e-9
