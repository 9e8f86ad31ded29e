"""The checks that the two training widgets' browser tests share, "Train it yourself" (test_trainer_widget.py,
``bookdev.trainer_driver``) and "Watch an induction head form" (test_induction_widget.py,
``bookdev.induction_driver``): each takes the widget's driver module, ``drv``, whose functions have the same
names and meanings (``train``, ``compare``, ``set_fields``, ``click``, ``state``, ``message``,
``wait_until_ended``, ``read_run``, ``fields``, ``fields_of``, ``PAGE``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from bookdev import widgets as wd
from bookdev.browser import VIEWPORT
from bookdev.site import PHONE, THEMES, wait_for_widgets


def trains_what_python_trains(w: wd.Widget, drv: ModuleType, cases: Sequence[dict[str, Any]],
                              reference: Callable[[dict[str, Any]], Any]) -> int:
    """The page trains each of ``cases`` as Python's ``reference(settings)`` does (``drv.compare``); a run that
    diverges stops in the state "diverged", says so, and keeps finite weights. Returns how many diverged."""
    stopped = 0
    for i, settings in enumerate(cases):
        ref = reference(settings)
        page = drv.train(w, settings)
        drv.compare(page, ref, f"case {i} {settings}")
        stopped += ref.stopped is not None
        if ref.stopped:
            assert drv.state(w) == "diverged" and "diverged" in drv.message(w)
            assert all(np.isfinite(v).all() for v in page["weights"].values())
    return stopped


def refuses_bad_settings(w: wd.Widget, drv: ModuleType, bad: Sequence[tuple[dict[str, str], str]], good: dict[str, Any],
                         shown_ok: Callable[[str], bool]) -> None:
    """Each of ``bad`` (fields over the chapter's, the text its message must hold) ends in the state "error" with
    that message, for which ``shown_ok(message)`` holds, and trains nothing; then the ``good`` settings train."""
    for fields, text in bad:
        drv.set_fields(w, {**drv.fields_of({}), **fields})
        drv.click(w, "train")
        assert drv.wait_until_ended(w) == "error", fields
        shown = drv.message(w)
        assert text in shown and shown_ok(shown), (fields, shown)
        assert drv.read_run(w) is None
    drv.set_fields(w, drv.fields_of(good))
    drv.click(w, "train")
    assert drv.wait_until_ended(w) == "done"  # the page still trains after every message


def stop_and_continue(page: Any, w: wd.Widget, drv: ModuleType, settings: dict[str, Any], ref: Any) -> dict[str, float]:
    """Train ``settings``, press Stop after a few steps and Continue: the page stops in between (and says how to go
    on) and ends with the run of one go, Python's ``ref``. Returns ``drv.compare``'s gaps."""
    drv.set_fields(w, drv.fields_of(settings))
    drv.click(w, "train")
    page.wait_for_function(f"() => {w.root}.trainer() && {w.root}.trainer().losses.length > 3")
    drv.click(w, "stop")
    assert drv.wait_until_ended(w) == "stopped"
    assert 3 < len(drv.read_run(w)["losses"]) < settings["steps"] + 1 and "press Continue" in drv.message(w)
    drv.click(w, "continue")
    assert drv.wait_until_ended(w) == "done"
    return drv.compare(drv.read_run(w), ref, "stopped and continued")


def reloaded(page: Any, drv: ModuleType, kind: str) -> wd.Widget:
    """Reload the page as a reader does; the widget ``kind`` once every widget has rendered again."""
    page.reload()
    wait_for_widgets(page)
    return wd.the_one(wd.find_widgets(page), kind, drv.PAGE)


def fields_survive_a_reload(page: Any, w: wd.Widget, drv: ModuleType, kind: str, changed: dict[str, str]) -> None:
    """The ``changed`` fields come back after a reload; Reset brings back the chapter's, and they too survive one."""
    drv.set_fields(w, changed)
    w = reloaded(page, drv, kind)
    assert drv.fields(w) == changed
    drv.click(w, "reset")
    assert drv.fields(w) == drv.fields_of({})
    w = reloaded(page, drv, kind)
    assert drv.fields(w) == drv.fields_of({})


def keyboard_trains(page: Any, w: wd.Widget, drv: ModuleType, first: tuple[str, str], then: Sequence[tuple[str, str]],
                    tabs_to_train: int, ref: Any) -> None:
    """From the chapter's fields: the field ``first`` focused and typed, each of ``then`` reached by Tab and typed,
    Train reached by ``tabs_to_train`` more Tabs and pressed by Enter; the run is Python's ``ref``."""
    drv.set_fields(w, drv.fields_of({}))
    w.page.evaluate(f"() => {w.root}.querySelector('[data-name=\"{first[0]}\"]').focus()")
    page.keyboard.press("Control+A")
    page.keyboard.type(first[1])
    for name, value in then:
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.dataset.name") == name
        page.keyboard.press("Control+A")
        page.keyboard.type(value)
    for _ in range(tabs_to_train):
        page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.name") == "train"
    page.keyboard.press("Enter")
    assert drv.wait_until_ended(w) == "done"
    drv.compare(drv.read_run(w), ref, "trained by keyboard")


def card_fits_a_phone(page: Any, w: wd.Widget, theme: str) -> None:
    """In ``theme`` (already set) on a 390 px screen: the card lies inside the screen, nothing overflows it, and it
    is the theme's opaque card."""
    left, right, scroll_w, client_w, bg = page.evaluate(f"""() => {{ const r = {w.root}; r.scrollIntoView();
      const b = r.getBoundingClientRect();
      return [b.left, b.right, r.scrollWidth, r.clientWidth, getComputedStyle(r).backgroundColor]; }}""")
    assert left >= 0 and right <= 390, f"{theme}: the widget spans {left}..{right} px on a 390 px screen"
    assert scroll_w <= client_w + 1, f"{theme}: the widget overflows its card: {scroll_w} > {client_w}"
    assert bg == wd.CARD_COLOURS[theme][0], f"{theme}: the card is not the theme's opaque card: {bg}"



def fits_a_phone_in_each_theme(page: Any, w: wd.Widget, run: Callable[[], Any],
                               look: Callable[[str], None] | None = None) -> None:
    """On a 390 px screen, ``run()`` (a short training run), then in each theme the card fits
    (:func:`card_fits_a_phone`) and ``look(theme)`` holds; the page is given back at the desktop's size in the
    light theme, for the other tests of its module that share it."""
    page.set_viewport_size(PHONE)
    try:
        run()
        for theme in THEMES:
            page.evaluate(f"() => document.documentElement.dataset.theme = '{theme}'")
            card_fits_a_phone(page, w, theme)
            if look is not None:
                look(theme)
    finally:
        page.evaluate(f"() => document.documentElement.dataset.theme = '{THEMES[0]}'")
        page.set_viewport_size(VIEWPORT)
