"""Development helpers shared by the tests and the benchmarks: never shipped to readers.

``attnlib`` and ``attnbook`` are what ``pip install`` (Colab, Binder) puts in a reader's
environment; this package is not in the distribution (``pyproject.toml`` packages only those two).
It is importable because every consumer runs from the repository root: pytest puts the root on
``sys.path`` (``tests`` is a package), and the benchmarks run as modules (``python -m
benchmarks.bench_widgets``). Nothing here may import a test module (``tests/build/test_layering.py``).

- :mod:`bookdev.browser`: the built site served on 127.0.0.1, Debian's Chromium driven by
  Playwright, and pages whose requests to any other host are blocked and recorded;
- :mod:`bookdev.site`: which pages the built site has, loading one until its math is typeset, and
  reading it once for every per-page check;
- :mod:`bookdev.readings`: the page readings, small JavaScript functions;
- :mod:`bookdev.legibility`: the measures of figure text and formulas a reader can read;
- :mod:`bookdev.widgets`: finding the sliders on a page, moving them, and what attnlib says they
  should show.
- :mod:`bookdev.trainer_driver`: chapter 17's "train it yourself", driven as a reader does;
- :mod:`bookdev.exercise_driver`: answers entered in a chapter's exercise cards, the feedback read.
"""
