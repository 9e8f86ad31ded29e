"""The sliders on the built site, with every host but the local server blocked: each renders, shows
the numbers attnlib computes in Python for the same state (to 3 decimals), never shows NaN, moves
with the keyboard and the mouse, follows both themes (its charts, buttons and card, theme_checks.py),
survives any input, and requests nothing from another host. (axe
inside the widgets, in light and dark mode, is checked on every slider page in test_pages.py.)
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from attnlib.widgets import (
    AskModel,
    ContinueText,
    DecodingStepper,
    DotProductSpread,
    GeometricAttention,
    RotaryPositions,
    SoftmaxSharpening,
    TemperatureSlider,
    TrainingReplay,
    TrainItYourself,
    WatchInduction,
    WriteWithModel,
    slider_math,
)
from attnlib.widgets.decoding import decoding_numbers
from bookdev import browser as bb
from bookdev import induction_driver as idr
from bookdev import trainer_driver as td
from bookdev import widgets as wd
from bookdev.site import AXE, WIDGET_PAGES, WIDTHS

from . import continue_text_driver as cd
from . import learning_driver as ld
from . import rotary_driver as rd
from . import theme_checks as tc
from . import writer_driver as xd

pytestmark = pytest.mark.browser

TOL = 0.5e-3 + 1e-9  # a number printed with 3 decimals is within half a unit of the last decimal
CLASSES = {c.__name__: c for c in (SoftmaxSharpening, TemperatureSlider, DotProductSpread, GeometricAttention,
                                    RotaryPositions, TrainingReplay, AskModel, DecodingStepper, WriteWithModel,
                                    TrainItYourself, WatchInduction, ContinueText)}


def test_there_are_widget_pages() -> None:
    # the sliders of chapters 05 (temperature), 06 (sharpening, spread) and 08 (geometric)
    expected = {"book/05_softmax.html", "book/06_scaling.html", "book/08_it_attends.html"}
    assert expected <= set(WIDGET_PAGES), f"widget pages missing from the built site: {sorted(expected - set(WIDGET_PAGES))}"


def _view(name: str, open_page) -> tuple:  # noqa: ANN001
    """Widget page ``name`` freshly loaded, every widget rendered: ``(name, page, log, widgets)``."""
    page, log = open_page(name)
    try:
        wd.wait_for_widgets(page)
    except Exception as err:  # noqa: BLE001
        pytest.fail(f"{name}: widgets did not render ({err}); console errors {log.console_errors}, "
                    f"page errors {log.page_errors}, blocked requests {log.external}")
    return name, page, log, wd.find_widgets(page)


@pytest.fixture(params=WIDGET_PAGES)
def widget_view(request, open_page):  # noqa: ANN001, ANN201
    """A widget page, freshly loaded for the test."""
    return _view(request.param, open_page)


# The pages with a geometric widget (the one with a point to drag), from their embedded state.
GEOMETRIC_PAGES = [p for p in WIDGET_PAGES if '.GeometricAttention"' in (bb.SITE / p).read_text(encoding="utf-8")]


@pytest.fixture(params=GEOMETRIC_PAGES)
def geometric_page(request, open_page):  # noqa: ANN001, ANN201
    """A page with a geometric widget, freshly loaded for the test."""
    return _view(request.param, open_page)


def _close(shown: str, expected: float, what: str) -> None:
    value = wd.number(shown)
    assert abs(value - expected) <= TOL, f"{what}: page shows {shown!r}, attnlib computes {expected:.6f}"


def _no_bad_numbers(widget: wd.Widget) -> None:
    text = widget.all_text()
    for bad in ("NaN", "Infinity", "undefined"):
        assert bad not in text, f"{widget.kind} shows {bad!r}: {text[:300]}"


def _render_offline_without_errors(name: str, page, log: bb.PageLog, widgets: list[wd.Widget]) -> None:  # noqa: ANN001
    assert widgets, f"{name}: no widget views"
    assert all(w.rendered for w in widgets), f"{name}: not rendered: {[w.kind for w in widgets if not w.rendered]}"
    assert {w.kind for w in widgets} <= set(CLASSES), f"{name}: unknown widgets {[w.kind for w in widgets]}"
    if page.locator("span.math, div.math").count():
        page.wait_for_selector("mjx-container", state="attached", timeout=10_000)  # MathJax served by the site typeset it
    for w in widgets:
        _no_bad_numbers(w)
    assert log.external == [], f"{name} requested other hosts: {log.external}"
    assert log.console_errors == [], f"{name} console errors: {log.console_errors}"
    assert log.page_errors == [], f"{name} page errors: {log.page_errors}"


def _embed_the_current_es_modules(name: str, widgets: list[wd.Widget]) -> None:
    """The widget state in the page carries the ES modules of attnlib as it is now (a stale build
    cache would test yesterday's JavaScript)."""
    for w in widgets:
        assert w.embedded_esm() == str(CLASSES[w.kind]._esm), (
            f"{name}: the {w.kind} module embedded in the page differs from attnlib/widgets: rebuild "
            "with 'make book' (it drops a stale jupyter cache)"
        )


def _check_sharpening(w: wd.Widget) -> None:
    steps = w.state["_limits"]["d_k"][2]
    seen = set()
    for show_scaled in (True, False):
        w.set_checkbox("show_scaled", show_scaled)
        assert w.is_hidden("scaled-panel") is (not show_scaled)
        for pos in wd.positions(steps):
            w.set_range("d_k", pos)
            exp = wd.expected_sharpening(w.state, pos)
            t = w.texts()
            assert wd.number(t["d_k-readout"]) == exp["d_k"], (pos, t["d_k-readout"])
            for key in ("unscaled", "scaled"):
                _close(t[f"{key}-max"], exp[key]["max_weight"], f"{key} max weight at d_k={exp['d_k']}")
                _close(t[f"{key}-entropy"], exp[key]["entropy"], f"{key} entropy at d_k={exp['d_k']}")
                for i, weight in enumerate(exp[key]["weights"]):
                    _close(t[f"{key}-bars-{i}"], weight, f"{key} weight {i} at d_k={exp['d_k']}")
            assert abs(wd.number(t["score-min"]) - exp["scores"].min()) <= 0.005 + 1e-9
            assert abs(wd.number(t["score-max"]) - exp["scores"].max()) <= 0.005 + 1e-9
            seen.add((t["unscaled-entropy"], t["scaled-entropy"]))
            _no_bad_numbers(w)
    assert len(seen) > 3, "moving d_k did not change the numbers"


def _check_temperature(w: wd.Widget) -> None:
    steps = w.state["_limits"]["temperature"][2]
    seen = set()
    for pos in wd.positions(steps):
        w.set_range("temperature", pos)
        exp = wd.expected_temperature(w.state, pos)
        t = w.texts()
        _close(t["temperature-value"], exp["temperature"], f"T at position {pos}")
        _close(t["max"], exp["max_weight"], f"max weight at T={exp['temperature']:.3f}")
        _close(t["entropy"], exp["entropy"], f"entropy at T={exp['temperature']:.3f}")
        for i, weight in enumerate(exp["weights"]):
            _close(t[f"weights-bars-{i}"], weight, f"weight {i} at T={exp['temperature']:.3f}")
        seen.add(t["entropy"])
        _no_bad_numbers(w)
    assert len(seen) > 3, "moving T did not change the numbers"


def _check_spread(w: wd.Widget) -> None:
    steps = w.state["_limits"]["dim"][2]
    seen = set()
    for scaled in (False, True):
        w.set_checkbox("scaled", scaled)
        for pos in wd.positions(steps):
            w.set_range("dim", pos)
            exp = wd.expected_spread(w.state, pos, scaled)
            t = w.texts()
            assert wd.number(t["dim-value"]) == exp["dim"]
            _close(t["mean"], exp["mean"], f"mean at d={exp['dim']}, scaled={scaled}")
            _close(t["variance"], exp["variance"], f"variance at d={exp['dim']}, scaled={scaled}")
            assert wd.number(t["outside"]) == exp["outside"]
            assert w.counts() == exp["counts"].tolist(), f"histogram at d={exp['dim']}, scaled={scaled}"
            seen.add(t["variance"])
            _no_bad_numbers(w)
    assert len(seen) > 3, "moving d did not change the numbers"


def _check_geometric_numbers(w: wd.Widget, query: list[float]) -> None:
    exp = wd.expected_geometric(w.state, query)
    t = w.texts()
    assert wd.numbers(t["query"]) == pytest.approx(query, abs=1e-9)
    for j in range(len(exp["weights"])):
        _close(t[f"score-{j}"], exp["scores"][j], f"score {j} at q={query}")
        _close(t[f"scaled-{j}"], exp["scaled_scores"][j], f"scaled score {j} at q={query}")
        _close(t[f"weight-{j}"], exp["weights"][j], f"weight {j} at q={query}")
    for shown, value in zip(wd.numbers(t["context"]), exp["context"]):
        assert abs(shown - value) <= TOL, f"context at q={query}: page {t['context']!r}, attnlib {exp['context']}"
    _no_bad_numbers(w)


def _check_geometric(w: wd.Widget) -> None:
    seen = set()
    for qx, qy in [(3.0, 1.0), (-5.0, -5.0), (5.0, 5.0), (0.0, 0.0), (1.7, -2.3), (-0.4, 4.9)]:
        w.set_range("query_x", qx)
        w.set_range("query_y", qy)
        _check_geometric_numbers(w, [qx, qy])
        seen.add(w.texts()["context"])
    assert len(seen) > 3, "moving the query did not change the numbers"


def _check_decoding(w: wd.Widget) -> None:
    """Every step: the cache has ``step`` rows and the newest query's scores, weights (in the table
    and on the bars) and output are what ``decoding_numbers`` computes with attnlib's KVCache. (The
    bars of tokens not generated yet are not drawn: test_decoding_widget.py.)"""
    n = len(w.state["tokens"])
    for step in [*range(1, n + 1), 2]:
        w.set_range("step", step)
        exp = decoding_numbers(w.state["query_vectors"], w.state["key_vectors"], w.state["value_vectors"], step)
        t = w.texts()
        assert wd.number(t["cache-length"]) == step and wd.number(t["cache-numbers"]) == exp["cache_numbers"]
        for j in range(n):
            hidden = w.is_hidden(f"row-{j}")
            assert hidden is (j >= step), f"row {j} at step {step}: hidden={hidden}"
            if j < step:
                _close(t[f"score-{j}"], exp["scores"][j], f"score {j} at step {step}")
                _close(t[f"weight-{j}"], exp["weights"][j], f"weight {j} at step {step}")
                _close(t[f"weights-bars-{j}"], exp["weights"][j], f"bar {j} at step {step}")
        for shown, value in zip(wd.numbers(t["output"]), exp["output"], strict=True):
            assert abs(shown - value) <= TOL, f"output at step {step}: page {t['output']!r}, attnlib {exp['output']}"
        _no_bad_numbers(w)


def _check_rotary(w: wd.Widget) -> None:
    """Positions, pairs and both modes: every shown number is attnlib's."""
    for sinusoidal in (False, True):
        w.set_checkbox("sinusoidal", sinusoidal)
        for m, n, pair in [(0, 0, 0), (5, 2, 1), (24, 0, 3), (3, 17, 2), (24, 24, 0)]:
            w.set_range("query_position", m)
            w.set_range("key_position", n)
            w.set_range("pair", pair)
            rd.check_rotary_numbers(w)


CHECKS = {
    "RotaryPositions": _check_rotary,
    "DecodingStepper": _check_decoding,
    "SoftmaxSharpening": _check_sharpening,
    "TemperatureSlider": _check_temperature,
    "DotProductSpread": _check_spread,
    "GeometricAttention": _check_geometric,
    "TrainingReplay": ld.check_replay,
    "AskModel": ld.check_ask,
    "WriteWithModel": xd.check_writer,
    "TrainItYourself": td.check_trainer,
    "WatchInduction": idr.check_induction,
    "ContinueText": cd.check_continue,
}


def test_widgets_render_offline_show_what_attnlib_computes_and_survive_any_input(widget_view) -> None:  # noqa: ANN001
    """As loaded: every widget rendered, no NaN, no error, nothing from another host, and the page
    embeds attnlib's ES modules as they are now; then every slider, moved through its range, shows the
    numbers attnlib computes for it; then the arrow keys move every slider; then, at a desktop's width and
    a phone's, every widget's charts, buttons and card follow each theme (:func:`theme_checks.theme_problems`);
    then every control of every widget takes long, empty, Unicode and out-of-range values and every
    button is pressed, at both widths (:func:`bookdev.widgets.any_input_problems`). One load of the page
    for all six."""
    name, page, log, widgets = widget_view
    _render_offline_without_errors(name, page, log, widgets)
    _embed_the_current_es_modules(name, widgets)
    for w in widgets:
        CHECKS[w.kind](w)
    _keyboard_moves_every_slider(page, widgets)
    themes = tc.theme_problems(page, WIDTHS)
    assert not themes, f"{name}: {len(themes)} problems with the theme, e.g. " + "; ".join(themes[:6])
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        cards, problems = wd.any_input_problems(page)
        assert cards > 0, f"{name}: no widget card"
        assert problems == [], f"{name} at {width} px: {problems[:10]}"
    assert log.console_errors == [] and log.page_errors == [], (log.console_errors, log.page_errors)
    assert log.external == [], f"{name} requested other hosts: {log.external}"


def _keyboard_moves_every_slider(page, widgets: list[wd.Widget]) -> None:  # noqa: ANN001
    """Focus a slider, press arrow keys: the value and the numbers change (no mouse needed). Each slider
    starts from its high end, wherever the checks above left it."""
    for w in widgets:
        for name in [n for n, v in w.texts().items() if n in ("d_k", "temperature", "dim", "query_x", "query_y", "step",
                                                                       "query_position", "key_position", "pair")]:
            if not page.evaluate(f"() => !!{w.root}.querySelector('input[data-name=\"{name}\"]')"):
                continue  # a readout of that name without a range input (the replay's step); its own tests move it
            top = page.evaluate(f"() => Number({w.root}.querySelector('input[data-name=\"{name}\"]').max)")
            w.set_range(name, top)  # from the high end, so that the keys below have room to move it
            page.evaluate(f"() => {w.root}.querySelector('input[data-name=\"{name}\"]').focus()")
            before = w.texts()
            for _ in range(12):
                page.keyboard.press("ArrowLeft")  # towards the low end
            after = w.texts()
            assert after[name] != before[name], f"{w.kind}: {name} did not move with the keyboard"
            changed = [k for k in after if k != name and after[k] != before.get(k)]
            assert changed, f"{w.kind}: moving {name} changed no number"
            _no_bad_numbers(w)


def test_there_are_geometric_pages() -> None:
    assert GEOMETRIC_PAGES, f"no page with a geometric widget among {WIDGET_PAGES}"


def test_drag_the_query(geometric_page) -> None:  # noqa: ANN001
    """Drag the query point in the geometric widget: it follows the pointer, snapped to 0.1."""
    name, page, _, widgets = geometric_page
    geometric = [w for w in widgets if w.kind == "GeometricAttention"]
    assert geometric, f"{name}: no geometric widget rendered"
    for w in geometric:
        box = page.evaluate(f"""() => {{
          const svg = {w.root}.querySelector('[data-name="qk-plane"]');
          svg.scrollIntoView({{ block: "center" }});
          const r = svg.getBoundingClientRect();
          return [r.x, r.y, r.width, r.height];
        }}""")
        x, y, width, height = box
        page.mouse.move(x + width * 0.5, y + height * 0.5)
        page.mouse.down()
        page.mouse.move(x + width * 0.2, y + height * 0.3, steps=5)
        page.mouse.up()
        q = wd.numbers(w.texts()["query"])
        assert q[0] < 0 < q[1], f"dragged up-left of the origin, query shows {q}"
        assert all(abs(v * 10 - round(v * 10)) < 1e-9 for v in q)
        _check_geometric_numbers(w, q)


def test_python_reference_matches_widget_defaults() -> None:
    """The Python classes hand the browser the state the reference functions use."""
    w = SoftmaxSharpening(d_k=100, seed=3)
    assert w._limits["d_k"] == [*slider_math.D_K_RANGE, slider_math.D_K_STEPS]
    assert w.numbers()["d_k"] == 100
    assert math.isclose(TemperatureSlider().numbers()["temperature"], 1.0)
    assert Path(AXE).is_file(), "axe-core is missing: run 'npm ci' (make test does)"
