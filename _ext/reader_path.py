"""Accessibility fixes for two pieces of HTML the reader's path adds (issue 16).

- myst-nb writes a code cell tagged ``hide-cell`` (the working behind a "How we know" note) as
  ``<details><summary aria-label="Toggle hidden content">Show code cell content</summary>``. An
  aria-label that does not contain the visible text fails axe's label-content-name-mismatch (a
  speech-input user says what they see). The summary is written without it: its accessible name is
  then its visible text.
- docutils wraps the bibliography's entries in ``<div role="list">``, whose children carry
  ``role="doc-biblioentry"``, not ``listitem``: axe's aria-required-children. The wrapper loses
  the role; each entry keeps its own.
"""

from __future__ import annotations

from html import escape
from typing import Any


def _visit_hide_cell(self: Any, node: Any) -> None:
    classes = " ".join(node["classes"])
    self.body.append(f'<details class="admonition hide {classes}">\n')
    self.body.append("<summary>\n")
    self.body.append(f'<p class="collapsed admonition-title">{escape(node["prompt_show"])}</p>\n')
    self.body.append(f'<p class="expanded admonition-title">{escape(node["prompt_hide"])}</p>\n')
    self.body.append("</summary>\n")


def _citation_list_role(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    body = context.get("body")
    if body and 'role="list" class="citation-list"' in body:
        context["body"] = body.replace('<div role="list" class="citation-list">', '<div class="citation-list">')


def setup(app: Any) -> dict[str, Any]:
    from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput

    app.setup_extension("myst_nb")
    app.add_node(HideCodeCellNode, override=True, html=(_visit_hide_cell, depart_HideCellInput))
    app.connect("html-page-context", _citation_list_role)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
