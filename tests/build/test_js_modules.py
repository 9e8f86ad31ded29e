"""The page's JavaScript in named steps (issue 38 §4): no function over 60 lines, and every widget ES
module names, in a comment line at its top, the shared helpers of ``_dom.js`` and ``_common.js`` it uses
(sliders.py puts those two files in front of the module, so without the line they look like globals that
no module names).

The JavaScript is read by a small lexer written here (comments, strings, template literals and regular
expressions blanked out, the lines kept), so the test needs no Node: a function is ``function ...(...) {``,
a method ``name(...) {`` or an arrow ``=> {``, and its length runs from its first line to the line of its
closing brace. The page scripts of ``_ext/static`` are classic scripts wrapped whole in ``(function () {
... })();`` so that their names stay out of the page's globals: that wrapper is the file's scope, not a
step, so it is not measured (every function inside it is).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WIDGETS = ROOT / "attnlib" / "widgets"
SHARED = ("_dom.js", "_common.js")
WIDGET_MODULES = sorted(p for p in WIDGETS.glob("*.js") if p.name not in SHARED)
PAGE_SCRIPTS = [ROOT / "attnbook" / "exercises" / "exercise.js", *sorted((ROOT / "_ext" / "static").glob("*.js"))]
MAX_LINES = 60
HEADER = re.compile(r"^// Shared helpers \(from _dom\.js and _common\.js\): (.*)$", re.MULTILINE)

# After one of these (or at the start), a "/" opens a regular expression; after anything else it divides.
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^")
_REGEX_AFTER_WORDS = ("return", "typeof", "case", "of", "in", "void", "delete", "throw", "else")
_NOT_A_FUNCTION = {"if", "for", "while", "switch", "catch", "with", "return", "typeof", "await"}


def strip_js(src: str) -> str:
    """`src` with comments, strings, template text and regular expressions turned into spaces (newlines
    kept, so line numbers hold); the code inside a template's ``${ }`` stays."""
    out = list(src)
    n = len(src)

    def blank(a: int, b: int) -> None:
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    def last_code(i: int) -> str:
        """The code before position i, as cleaned so far, without trailing blanks."""
        return "".join(out[max(0, i - 20) : i]).rstrip()

    templates: list[int] = []  # for each open ${, the depth of { inside it
    mode = "code"
    i = 0
    while i < n:
        c = src[i]
        nxt = src[i + 1] if i + 1 < n else ""
        if mode == "tpl":  # inside a template literal's text
            if c == "\\":
                blank(i, i + 2)
                i += 2
            elif c == "`":
                i += 1
                mode = "code"
            elif c == "$" and nxt == "{":
                templates.append(0)
                i += 2
                mode = "code"
            else:
                blank(i, i + 1)
                i += 1
            continue
        if c == "/" and nxt == "/":
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif c == "/" and nxt == "*":
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            blank(i + 1, j)
            i = j + 1
        elif c == "`":
            i += 1
            mode = "tpl"
        elif c == "/" and _opens_regex(last_code(i)):
            j, in_class = i + 1, False
            while j < n and (in_class or src[j] != "/"):
                if src[j] == "\\":
                    j += 1
                elif src[j] == "[":
                    in_class = True
                elif src[j] == "]":
                    in_class = False
                j += 1
            blank(i + 1, j)
            i = j + 1
        elif c == "{" and templates:
            templates[-1] += 1
            i += 1
        elif c == "}" and templates:
            if templates[-1] == 0:
                templates.pop()
                mode = "tpl"
            else:
                templates[-1] -= 1
            i += 1
        else:
            i += 1
    return "".join(out)


def _opens_regex(before: str) -> bool:
    """Whether a "/" after the code `before` starts a regular expression (not a division)."""
    if not before:
        return True
    if before[-1] in _REGEX_AFTER:
        return True
    word = re.search(r"[\w$]+$", before)
    return bool(word) and word.group() in _REGEX_AFTER_WORDS


def _matching(code: str, i: int, opening: str, closing: str) -> int:
    """The index of the bracket closing the one at `i` (found scanning forward)."""
    depth = 0
    for j in range(i, len(code)):
        if code[j] == opening:
            depth += 1
        elif code[j] == closing:
            depth -= 1
            if depth == 0:
                return j
    raise ValueError(f"unbalanced {opening} at {i}")


def _opening_paren(code: str, i: int) -> int:
    """The index of the "(" matching the ")" at `i` (found scanning backward)."""
    depth = 0
    for j in range(i, -1, -1):
        if code[j] == ")":
            depth += 1
        elif code[j] == "(":
            depth -= 1
            if depth == 0:
                return j
    raise ValueError(f"unbalanced ) at {i}")


def _is_file_wrapper(code: str, head: str, end: int) -> bool:
    """Whether the function ending at `end` is a whole file's ``(function () { ... })();`` wrapper: it opens
    a line with "(function" and is called right after its closing brace."""
    opens_line = re.search(r"(?:^|\n)\(\s*function$", head) is not None
    return opens_line and re.match(r"\s*\)\s*\(\s*\)\s*;?\s*$", code[end + 1 :]) is not None


def functions(src: str) -> list[tuple[str, int, int]]:
    """Every function of `src` with a body in braces, but a file's wrapper (see the module's docstring):
    (name, first line, number of lines)."""
    code = strip_js(src)
    found = []
    for m in re.finditer(r"\{", code):
        start = m.start()
        before = code[:start].rstrip()
        if before.endswith("=>"):
            head = before[:-2].rstrip()
            word = re.search(r"([\w$]+)\s*=\s*(?:\([^()]*\)|[\w$]+)$", head)
            name = word.group(1) if word else "(arrow)"
            first = head
        elif before.endswith(")"):
            paren = _opening_paren(code, len(before) - 1)
            head = code[:paren].rstrip()
            word = re.search(r"(?:(function\*?)\s*)?([\w$]*)$", head)
            if word.group(2) in _NOT_A_FUNCTION or not (word.group(1) or word.group(2)):
                continue
            name = word.group(2) or "(function)"
            first = head
        else:
            continue
        end = _matching(code, start, "{", "}")
        if name == "(function)" and _is_file_wrapper(code, head, end):
            continue
        line = first.count("\n") + 1
        found.append((name, line, code.count("\n", 0, end) + 2 - line))
    return found


def shared_helpers() -> list[str]:
    """The names _dom.js and _common.js declare at their top level (functions and consts)."""
    names = []
    for f in SHARED:
        src = (WIDGETS / f).read_text(encoding="utf-8")
        names += re.findall(r"^(?:function\s*\*?\s*|const\s+)([\w$]+)", src, re.MULTILINE)
    return names


def helpers_used(src: str, helpers: list[str]) -> list[str]:
    """The shared helpers a module's own code names (not as a property, `x.name`), in the helpers' order."""
    code = strip_js(src)
    return [name for name in helpers if re.search(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", code)]


def header(src: str) -> list[str] | None:
    """The helpers a module's header line names, or None without the line in its first comment block."""
    lines = src.splitlines()
    code_starts = next((i for i, line in enumerate(lines) if not line.startswith("//")), len(lines))
    m = HEADER.search("\n".join(lines[:code_starts]))
    return None if m is None else [w.strip() for w in m.group(1).split(",") if w.strip() and w.strip() != "none"]


def header_problem(src: str, helpers: list[str]) -> str | None:
    """What is wrong with a module's header list, or None."""
    named, used = header(src), helpers_used(src, helpers)
    if named is None:
        return f"no '// Shared helpers (from _dom.js and _common.js): ...' line at the top; it uses {', '.join(used)}"
    missing = [x for x in used if x not in named]
    extra = [x for x in named if x not in used]
    if missing or extra:
        return f"the header misses {missing} and names {extra} that the module does not use"
    return None


def long_functions(src: str) -> list[tuple[str, int, int]]:
    return [f for f in functions(src) if f[2] > MAX_LINES]


# --- the book's files ---------------------------------------------------------------------------------
@pytest.mark.parametrize("path", WIDGET_MODULES + PAGE_SCRIPTS + [WIDGETS / f for f in SHARED], ids=lambda p: p.name)
def test_no_function_over_60_lines(path: Path) -> None:
    src = path.read_text(encoding="utf-8")
    assert functions(src), f"{path.name}: the lexer found no function at all"
    assert long_functions(src) == [], f"{path.name}: functions over {MAX_LINES} lines (name, line, lines)"


@pytest.mark.parametrize("path", WIDGET_MODULES, ids=lambda p: p.name)
def test_header_names_the_shared_helpers_used(path: Path) -> None:
    problem = header_problem(path.read_text(encoding="utf-8"), shared_helpers())
    assert problem is None, f"{path.name}: {problem}"


def test_the_trainer_worker_code_uses_only_the_helpers_sent_to_the_worker() -> None:
    # trainer.py also sends trainer_core.js into the page's Web Worker, where _dom.js and _common.js are
    # not loaded: trainer.js puts in front of it only the helpers it names in WORKER_HELPERS (their own
    # source text). Any other shared helper used there would work in the page and fail in the worker.
    src = (WIDGETS / "trainer_core.js").read_text(encoding="utf-8")
    m = re.search(r"^const WORKER_HELPERS = \[([^\]]*)\]", (WIDGETS / "trainer.js").read_text(encoding="utf-8"), re.MULTILINE)
    assert m is not None, "trainer.js names no WORKER_HELPERS"
    sent = [x.strip() for x in m.group(1).split(",") if x.strip()]
    used = helpers_used(src, shared_helpers())
    assert set(used) <= set(sent) and sorted(header(src)) == sorted(used), (used, sent, header(src))
    # and what is sent uses no other helper: quotedWords calls quotedWord, both sent
    helpers_src = (WIDGETS / "_common.js").read_text(encoding="utf-8")
    for name in sent:
        body = re.search(rf"^function {name}\(.*?^}}", helpers_src, re.MULTILINE | re.DOTALL)
        assert body is not None, name
        assert set(helpers_used(body.group(0).replace(f"function {name}(", "("), shared_helpers())) <= set(sent), name


def test_shared_helpers_are_read_from_the_shared_files() -> None:
    helpers = shared_helpers()
    for name in ("h", "card", "rangeControl", "softmax", "fmt", "uniformAt", "save", "redrawOn", "quotedWords"):
        assert name in helpers
    assert "uid" not in helpers  # private state (a `let`), not a helper


# --- the guards catch what they are for ---------------------------------------------------------------
def test_a_planted_long_function_is_caught() -> None:
    body = "\n".join(f"  const x{i} = `${{a}} {{ }}` + '}}' + /[}}]/.source; // }}" for i in range(60))
    src = f"function short() {{\n  return 1;\n}}\nfunction render({{ model, el }}) {{\n{body}\n}}\n"
    assert long_functions(src) == [("render", 4, 62)]
    assert [f[0] for f in functions(src)] == ["short", "render"]
    nested = "function outer() {\n  const inner = (a) => {\n" + "    a += 1;\n" * 59 + "  };\n}\n"
    assert [(name, n) for name, _, n in long_functions(nested)] == [("outer", 63), ("inner", 61)]
    wrapped = '(function () {\n  "use strict";\n' + body.replace("const", "var") + "\n  function render() {\n" + "    go();\n" * 60 + "  }\n})();\n"
    assert [(name, n) for name, _, n in long_functions(wrapped)] == [("render", 62)]  # inside the file's wrapper
    assert long_functions("var f = (function () {\n" + "  go();\n" * 60 + "})();\n") == [("(function)", 1, 62)]
    method = "const o = {\n  update(values) {\n" + "    go();\n" * 59 + "  },\n};\nif (x) {\n" + "y;\n" * 70 + "}\n"
    assert [(name, n) for name, _, n in long_functions(method)] == [("update", 61)]


def test_a_wrong_header_is_caught() -> None:
    helpers = shared_helpers()
    body = 'function render({ model, el }) {\n  el.append(card("t"), h("p", { text: fmt(1) }));\n  x.save();\n}\n'
    good = "// Shared helpers (from _dom.js and _common.js): h, fmt, card\n" + body
    assert header_problem(good, helpers) is None
    missing = "// Shared helpers (from _dom.js and _common.js): h, card\n" + body
    assert "misses ['fmt']" in header_problem(missing, helpers)
    extra = "// Shared helpers (from _dom.js and _common.js): h, fmt, card, save\n" + body
    assert "names ['save']" in header_problem(extra, helpers)  # x.save() is a method, not the helper
    assert "no '// Shared helpers" in header_problem(body, helpers)
    below_the_code = body + "// Shared helpers (from _dom.js and _common.js): h, fmt, card\n"
    assert "no '// Shared helpers" in header_problem(below_the_code, helpers)  # the line must be at the top
    in_a_string = '// Shared helpers (from _dom.js and _common.js): h\nel.append(h("p", { text: "fmt card" }));\n'
    assert header_problem(in_a_string, helpers) is None
