"""Rendering the judged rows as Markdown for the Errata page."""

from __future__ import annotations

import math
from typing import Any

from ._judge import Judgement
from ._rule import ERRATA_VERDICTS

#: The most significant digits a displayed number keeps. Beyond them the float64 arithmetic of
#: another CPU (its BLAS and SIMD kernels) may give other digits, and a page must not depend on them.
SIGNIFICANT = 8


def format_value(value: Any, decimals: int | None) -> str:
    """Display a computed value with ``decimals`` places (lists keep their nesting), and never with
    more than ``SIGNIFICANT`` significant digits: a large value (a diverging training's loss, say)
    gets fewer places, and from 1e8 on it is shown in scientific notation."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    d = 4 if decimals is None else decimals
    if isinstance(value, (int, float)):
        whole = len(str(int(abs(value)))) if math.isfinite(value) else 0
        if whole > SIGNIFICANT:
            return f"{value:.{SIGNIFICANT - 1}e}"
        return f"{value:.{min(d, SIGNIFICANT - whole) if abs(value) >= 1 else d}f}"
    return "[" + ", ".join(format_value(v, d) for v in value) + "]"


# --- rendering (Markdown for the "Errata" page) ------------------------------------------------


def render_value(value: Any, decimals: int | None = None) -> str:
    """A value as the page prints it: numbers with ``decimals`` places (4 by default), lists keep
    their nesting, strings and bools as words."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return format_value(value, decimals)
    return "[" + ", ".join(render_value(v, decimals) for v in value) + "]"


def markdown_cell(text: Any) -> str:
    """Text made safe for one cell of a Markdown table: ``|`` escaped, on one line."""
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


def _values_line(row: dict[str, Any], j: Judgement) -> str:
    """The values the verdict rests on, in one Markdown list item."""
    if j.exact is not None:
        parts = [f"exact: `{render_value(j.exact, row.get('decimals'))}`"]
        if j.route is not None:
            inputs = "; ".join(f"{i} `{markdown_cell(v)}`" for i, v in j.inputs.items())
            parts.append(f"document's own route ({markdown_cell(j.note)}; from its printed {inputs}): `{render_value(j.route, row.get('decimals'))}`")
        return "- values: " + ", ".join(parts)
    items = [f"{markdown_cell(k)}: `{render_value(v)}`" for k, v in j.shown.items()]
    line = "- values: " + ("; ".join(items) if items else "none")
    if j.edge:
        line += f"\n- edge: {markdown_cell(j.edge)}"
    return line


def render_errata(rows: list[dict[str, Any]], judgements: dict[str, Judgement], order: dict[str, int] | None = None,
                  titles: dict[str, str] | None = None) -> str:
    """The Errata page body: per document, one block per erratum (rows whose computed verdict is not
    ``correct`` or ``carried``), in the document's order when ``order`` is given, each with the values
    its verdict rests on and its consequences (carried values) inside it."""
    order, titles = order or {}, titles or {}
    errata = sorted((r for r in rows if judgements[r["id"]].verdict in ERRATA_VERDICTS),
                    key=lambda r: (str(r["document"]), order.get(r["id"], 10**9)))
    out: list[str] = []
    for doc in sorted({str(r["document"]) for r in errata}):
        out.append(f"## Document {doc}: {titles.get(doc, '')}\n")
        for r in (r for r in errata if str(r["document"]) == doc):
            j = judgements[r["id"]]
            out.append(
                f"**{markdown_cell(r['section'])}** — {markdown_cell(r['quantity'])}\n\n"
                f"- document: `{markdown_cell(r['document_value'])}` ({{ref}}`its check <{r['label']}>`)\n"
                f"{_values_line(r, j)}\n"
                f"- verdict: **{j.verdict}** ({markdown_cell(r.get('cause', '?'))}). {markdown_cell(r['why'])}"
            )
            kids = [c for c in rows if c.get("carried_from") == r["id"]]
            for c in kids:
                jc = judgements[c["id"]]
                out.append(f"  - consequence, {markdown_cell(c['quantity'])}: document `{markdown_cell(c['document_value'])}`, "
                           f"corrected `{render_value(jc.exact, c.get('decimals'))}`, its own route "
                           f"`{render_value(jc.route, c.get('decimals'))}` (**{jc.verdict}**). {markdown_cell(c.get('why', ''))}")
            out.append("")
    return "\n".join(out)
