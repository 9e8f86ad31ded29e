"""The chapters' companions: data sets, experiments and the documents' inputs.

These modules serve one chapter or a few: the worked examples' inputs (``examples``), the toy tasks
and their training runs (``learning``, ``trainer``, ``lookup``, ``heads``, ``order``, ``stories``,
``lm``), the from-scratch pipeline (``scratch``, ``text``, ``recurrence``, ``grads``), and the
measurements the chapters print (``scaling``, ``cost``, ``report``, and ``head_scores``: what a head does). They build on the reusable core
in ``attnlib`` (softmax, masks, attention, modules, chunked, positions, decoding, transformer,
generation); the core never imports them.
"""

from . import checks, cost, examples, foils, heads, recurrence, report, scaling, scratch, text

__all__ = ["checks", "cost", "examples", "foils", "heads", "recurrence", "report", "scaling", "scratch", "text"]
