"""What a row's derivation returns: the named values an errata verdict rests on.

A derivation (``attnbook.derivations``) returns one of these, or a bare value:

- a number, list, array or tensor: the **exact** value of a numeric row, computed from the
  document's original inputs at full precision;
- :class:`Exact`: the exact value plus the document's own **route**: the same step computed from
  the values the document itself printed for its inputs (named by their row ids);
- :class:`Finding`: what the book's computation shows about a claim (``holds`` in the cases it
  describes; an ``edge`` where it fails although it holds there);
- :class:`MadeUp`: a number or claim the document did not derive (made up, an unseeded run, or a
  claim that holds only for toy data), with the evidence for saying so;
- a bare ``bool``: shorthand for ``Finding(holds=...)``.

``attnbook.errata.judge`` turns these into a verdict by the rule written on the Errata page.
Used in: "Errata", "Number audit".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Route:
    """The document's own route to a value: ``compute`` applied to the numbers the document printed
    for the rows ``inputs`` (each passed as a flat float64 array, in this order)."""

    inputs: tuple[str, ...]
    compute: Callable[..., Any]
    note: str = ""  # which intermediate the route differs by, e.g. "logits rounded to 2 decimals"

    def __post_init__(self) -> None:
        if not self.inputs or not all(isinstance(i, str) for i in self.inputs):
            raise TypeError(f"Route.inputs must be a non-empty tuple of row ids, got {self.inputs!r}")


@dataclass(frozen=True)
class Exact:
    """A numeric row's exact value and (optionally) the value the document's own route gives."""

    exact: Any
    route: Route | None = None


@dataclass(frozen=True)
class Finding:
    """A claim checked by computation: ``holds`` in the cases it describes; ``edge`` names a case
    where it fails although it holds in those (then the claim is imprecise); ``shown`` holds the
    values the verdict rests on, printed on the page."""

    holds: bool
    edge: str = ""
    shown: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MadeUp:
    """A value or claim the document did not derive. ``confirmed`` is the computation behind what
    the page says about it (e.g. "the five weights sum to more than 1"); ``shown`` its values."""

    confirmed: bool
    shown: Mapping[str, Any] = field(default_factory=dict)
