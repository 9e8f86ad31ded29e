"""attnbook: the book's own machinery, kept apart from the attention library.

``attnlib`` is what a reader learns attention from. ``attnbook`` is how the book checks the
documents it reproduces and helps its readers run it:

- ``errata``: the rows of the Errata page and the rule that gives each its verdict;
- ``checks``: one named function per errata row, registered by the row's id (no code in the YAML);
- ``evidence``: what a check returns, the named values a verdict rests on;
- ``audit``: the number audit, every numeric token of the five documents accounted for;
- ``compare``: a document's printed values beside attnlib's, judged by the errata rule;
- ``colab``: the install cell at the top of every chapter;
- ``source``: ``show_source``, the real code of an attnlib function shown on the page.

The arrow points one way: ``attnbook`` imports ``attnlib``, never the reverse
(``tests/build/test_layering.py``). Both packages ship in one distribution, ``attnlib``, so a reader
on Colab installs one thing.
"""
