"""Drive the "write with the model" widget of "A model that writes" on a built page, as a reader does,
and compare it with its Python twin (``WriteWithModel.numbers()`` on the page's own stored weights).
Used by tests/browser/test_writer_widget.py and tests/browser/test_widgets.py (the shared checks);
``keyboard_write`` also drives "continue the text" (tests/browser/test_continue_text_widget.py), whose
controls are the same (writer_core.js).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from attnlib.widgets import WriteWithModel
from bookdev import widgets as wd

PAGE = "book/19_a_model_that_writes.html"
LOGIT_TOL = 1e-9  # float64 on both sides agrees to rounding; the issue asks for 1e-5
TOL = 0.5e-3 + 1e-9  # a number printed with 3 decimals


def twin(w: wd.Widget, **traits: Any) -> WriteWithModel:
    """The widget in Python, rebuilt from the page's embedded state, with ``traits`` changed."""
    widget = WriteWithModel.from_state(w.state)
    for name, value in traits.items():
        setattr(widget, name, value)
    return widget


def result(w: wd.Widget) -> dict[str, Any]:
    """What the page computed (the widget's ``data-result``)."""
    return json.loads(w.page.evaluate(f"() => {w.root}.dataset.result"))


def set_controls(w: wd.Widget, *, prompt: str | None = None, temperature: float | None = None, top_k: int | None = None,
                 top_p: float | None = None, seed: int | None = None) -> None:
    """Set the page's controls as a reader does: type the prompt, move the sliders, enter the seed."""
    w.page.evaluate(
        f"""(c) => {{
          const root = {w.root};
          const fire = (name, value, kind) => {{
            const el = root.querySelector(`input[data-name="${{name}}"]`);
            el.value = String(value);
            el.dispatchEvent(new Event(kind, {{ bubbles: true }}));
          }};
          if (c.prompt !== null) fire("prompt", c.prompt, "input");
          if (c.temperature !== null) fire("temperature", Math.round(c.temperature * 10), "input");
          if (c.top_k !== null) fire("top_k", c.top_k, "input");
          if (c.top_p !== null) fire("top_p", Math.round(c.top_p * 20), "input");
          if (c.seed !== null) fire("seed", c.seed, "change");
        }}""",
        {"prompt": prompt, "temperature": temperature, "top_k": top_k, "top_p": top_p, "seed": seed},
    )


def press(w: wd.Widget, name: str, times: int = 1) -> None:
    """Click the button ``name`` (next, finish, restart) ``times`` times, on either writer (the buttons of
    writer_core.js). How long a click takes is benchmarks/bench_widgets.py's to measure."""
    w.page.evaluate(
        f"""([name, times]) => {{
          const button = {w.root}.querySelector(`button[data-name="${{name}}"]`);
          for (let i = 0; i < times; i++) button.click();
        }}""",
        [name, times],
    )


def keyboard_write(w: wd.Widget, prompt: str, *, arrows: int, seed: int, nexts: int, finish: bool = False) -> None:
    """Write by keyboard alone, on either writer (the controls of writer_core.js): click "clear" (it focuses
    the prompt box), type ``prompt`` and Tab to the clear button; ArrowRight ``arrows`` times on the
    temperature slider (a tenth each); type ``seed`` over the seed box's and Tab (its change event); Enter
    on "start again", ``nexts`` times on the next button and, with ``finish``, once on the finish button."""
    page = w.page

    def focus(selector: str) -> None:
        page.evaluate(f"() => {w.root}.querySelector('{selector}').focus()")

    page.evaluate(f"() => {w.root}.querySelector('button[data-name=\"clear\"]').click()")
    page.keyboard.type(prompt)
    page.keyboard.press("Tab")  # the clear button
    focus('input[data-name="temperature"]')
    for _ in range(arrows):
        page.keyboard.press("ArrowRight")
    focus('input[data-name="seed"]')
    page.keyboard.press("Control+A")
    page.keyboard.type(str(seed))
    page.keyboard.press("Tab")  # the change event
    focus('button[data-name="restart"]')
    page.keyboard.press("Enter")
    focus('button[data-name="next"]')
    for _ in range(nexts):
        page.keyboard.press("Enter")
    if finish:
        focus('button[data-name="finish"]')
        page.keyboard.press("Enter")


def compare(page: dict[str, Any], ref: dict[str, Any], what: str) -> None:
    """The page's words, logits (to 1e-5), candidates, probabilities and attention rows equal Python's."""
    assert "error" not in page and "error" not in ref, (what, page.get("error"), ref.get("error"))
    assert page["prompt"] == ref["prompt"], what
    assert page["new"] == ref["new"], f"{what}: page wrote {page['new']}, Python {ref['new']}"
    assert len(page["logits"]) == len(ref["logits"]) == len(page["new"])
    for k, (logits, ref_logits) in enumerate(zip(page["logits"], ref["logits"], strict=True)):
        np.testing.assert_allclose(logits, ref_logits, atol=LOGIT_TOL, rtol=0, err_msg=f"{what}, word {k + 1}")
        assert page["candidates"][k] == list(ref["candidates"][k]), f"{what}, word {k + 1}"
        np.testing.assert_allclose(page["probs"][k], ref["probs"][k], atol=1e-9, rtol=0)
        np.testing.assert_allclose(page["rows"][k], ref["rows"][k], atol=1e-9, rtol=0)


def check_writer(w: wd.Widget) -> None:
    """The page as loaded shows the words, the top five and the attention row Python computes."""
    page, ref = result(w), twin(w).numbers()
    compare(page, ref, "the page as loaded")
    t = w.texts()
    assert len(ref["new"]) > 0, "the chapter's widget should open with words written"
    assert [t[f"new-{k}"] for k in range(len(ref["new"]))] == ref["new"]
    last = len(ref["new"]) - 1
    vocab = w.state["vocab"]
    for j in range(5):
        assert t[f"top-{j}-word"] == vocab[ref["candidates"][last][j]]
        assert abs(wd.number(t[f"top-{j}-prob"]) - ref["probs"][last][j]) <= TOL
    row = ref["rows"][last]
    assert len([k for k in t if k.startswith("row-") and k[4:].isdigit()]) == len(row)
    best = int(np.argmax(row))
    assert f"position {best + 1}" in t["row-max"] and abs(wd.number(t["row-max"].split(",")[-1]) - row[best]) <= TOL
