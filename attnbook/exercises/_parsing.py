"""What a reader typed, read by one rule (the same as in ``exercise.js``): numbers, options."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

# --- numbers from a reader --------------------------------------------------------------------

# One rule for what counts as a number, the same in exercise.js: the text is NFKC-normalised (full-width
# digits and signs become ASCII), the minus sign U+2212 that the book prints becomes "-", invisible
# characters (byte-order mark, zero-width spaces) are dropped; then only the ASCII digits 0-9 count.
_NUMBER = re.compile(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")
_SEPARATORS = re.compile(r"[ \t\n\r\f\v,;()\[\]]+")
_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060"))


def normalise_text(text: str) -> str:
    """A reader's typed answer in the form the rule reads (see the comment above)."""
    return unicodedata.normalize("NFKC", text).replace("\u2212", "-").translate(_INVISIBLE).strip(" \t\n\r\f\v")


#: The most characters of a reader's input a message quotes (the page's rule too): a pasted page of text
#: is not repeated back.
QUOTE_CHARS = 40


def quote(text: str) -> str:
    """``text`` as a message quotes it: at most ``QUOTE_CHARS`` characters, cut with an ellipsis."""
    return text if len(text) <= QUOTE_CHARS else text[:QUOTE_CHARS - 1] + "…"


class AnswerError(ValueError):
    """An answer that cannot be judged; the message says why, in the words the page uses too."""


def _plain(x: Any) -> Any:
    """``x`` with every torch tensor in it (nested in lists or tuples too) as a NumPy array: detached
    from autograd, dense, on the CPU."""
    if isinstance(x, torch.Tensor):
        x = x.detach().cpu()
        x = x.to_dense() if x.layout != torch.strided else x
        return x.numpy() if x.dtype == torch.bool else x.double().numpy()
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def _as_float_array(x: Any) -> np.ndarray:
    return np.asarray(_plain(x), dtype=np.float64).reshape(-1)


def _describe(x: Any) -> str:
    return type(x).__name__


def parse_numbers(answer: Any, expect: str) -> np.ndarray:
    """A reader's numeric answer as a flat float array, or :class:`AnswerError` saying what is wrong.

    Accepts a number, a list/tuple (nested), a NumPy array, a torch tensor, or text such as
    ``"0.3, 0.33, 0.37"`` (the page's input: numbers separated by commas, spaces or semicolons;
    brackets ignored). ``exercise.js`` parses text by the same rule.
    """
    if answer is None:
        raise AnswerError(f"Empty answer: enter {expect}.")
    if isinstance(answer, str):
        tokens = [t for t in _SEPARATORS.split(normalise_text(answer)) if t]
        if not tokens:
            raise AnswerError(f"Empty answer: enter {expect}.")
        values = []
        for t in tokens:
            if t.lower() in ("nan", "inf", "+inf", "-inf", "infinity", "-infinity"):
                raise AnswerError("Your answer contains NaN or infinity: enter finite numbers.")
            if not _NUMBER.match(t):
                digits = " (write numbers with the digits 0-9)" if any(c.isdecimal() and not c.isascii() for c in t) else ""
                raise AnswerError(f"Expected {expect}; '{quote(t)}' is not a number{digits}.")
            values.append(float(t))
        arr = np.asarray(values, dtype=np.float64)
    else:
        if isinstance(answer, bool) or callable(answer) or isinstance(answer, (dict, set, bytes)):
            raise AnswerError(f"Expected {expect}, got a {_describe(answer)}.")
        try:
            arr = _as_float_array(answer)
        except (TypeError, ValueError):
            raise AnswerError(f"Expected {expect}, got a {_describe(answer)} that is not made of numbers.") from None
        if arr.size == 0:
            raise AnswerError(f"Empty answer: enter {expect}.")
    if not np.all(np.isfinite(arr)):
        raise AnswerError("Your answer contains NaN or infinity: enter finite numbers.")
    return arr


def _matches(got: np.ndarray, target: np.ndarray, tol: float) -> bool:
    return got.shape == target.shape and bool(np.all(np.abs(got - target) <= tol + 1e-12))


def _parse_option(answer: Any, keys: Sequence[str]) -> str:
    choices = ", ".join(keys)
    if answer is None or (isinstance(answer, str) and not normalise_text(answer)):
        raise AnswerError(f"Empty answer: choose one of {choices}.")
    if not isinstance(answer, str):
        raise AnswerError(f"Choose one of {choices} (the letter, as text), got a {_describe(answer)}.")
    raw = normalise_text(answer)
    key = raw.lstrip("(").rstrip(")").lower()
    if key not in keys:
        raise AnswerError(f"Choose one of {choices}; '{quote(raw)}' is not one of them.")
    return key
