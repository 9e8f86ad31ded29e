"""Running a reader's function with a time limit: a runaway answer is stopped, and the inputs are copied."""

from __future__ import annotations

import copy
import ctypes
import threading
import time
from collections.abc import Callable
from typing import Any

import torch


class _Timeout(BaseException):
    """Raised inside a reader's function whose time is up; a BaseException, so that the reader's
    ``except Exception: pass`` cannot swallow it."""


def _stop_thread(thread: threading.Thread, patience: float = 2.0) -> bool:
    """Raise :class:`_Timeout` inside ``thread`` at its next Python instruction, again and again until
    it ends (a loop that catches even BaseException once is caught at its next turn); a long C call
    finishes first, then stops. True when the thread has ended within ``patience`` seconds."""
    deadline = time.perf_counter() + patience
    while thread.is_alive() and thread.ident is not None and time.perf_counter() < deadline:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(_Timeout))
        thread.join(0.05)
    return not thread.is_alive()


def _call(fn: Callable[..., Any], args: tuple[Any, ...], timeout: float) -> tuple[str, Any]:
    """Run ``fn(*args)`` in a daemon thread: ("ok", value), ("raised", exc) or ("timeout", None)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn(*args)
        except _Timeout:
            box["timeout"] = True
        except BaseException as err:  # noqa: BLE001 - the reader's code may raise anything
            box["error"] = err

    thread = threading.Thread(target=target, daemon=True, name="attnbook-exercise")
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        _stop_thread(thread)
        return "timeout", None
    if "error" in box:
        return "raised", box["error"]
    if "timeout" in box:
        return "timeout", None
    return "ok", box.get("value")


def _copy(x: Any) -> Any:
    """A fresh copy of one case's argument, so that a function that changes its inputs (empties a
    list, writes into a tensor) changes nothing the next call sees."""
    if isinstance(x, torch.Tensor):
        return x.detach().clone()
    return copy.deepcopy(x)
