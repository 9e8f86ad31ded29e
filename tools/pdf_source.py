"""Write the print copy of the book that `make pdf` typesets.

    python -m tools.pdf_source _build/pdf-src   (make pdf)

The copy holds the book's config, toc, pages and Sphinx extension. Two things differ from the site:

- the notebooks are not executed: their committed outputs (checked by nbval) are printed as they are
  (``execute_notebooks: "off"`` in the copy's _config.yml);
- a slider cannot move on paper. Each widget output becomes the widget's default figure, drawn with
  ``attnlib.plots`` from the widget's own numbers (``widget.numbers()``, the Python twin of what its
  ES module shows), followed by a line saying that the figure is interactive on the web page.

The widget's default state is read from the notebook's embedded widget state, so the printed figure
is the one the page starts from.
"""

from __future__ import annotations

import argparse
import ast
import base64
import inspect
import io
import json
import re
import shutil
import sys
import textwrap
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import anywidget  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import yaml  # noqa: E402

from attnlib import plots, style, widgets  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
STATE_MIME = "application/vnd.jupyter.widget-state+json"
COPIED = ("_toc.yml", "book", "_ext", "_templates")
#: The widgets drawn as their default figure in print; any other widget gets the line alone.
PRINT_FIGURES = ("SoftmaxSharpening", "TemperatureSlider", "DotProductSpread", "GeometricAttention",
                 "RotaryPositions", "DecodingStepper", "TrainingReplay", "AskModel", "WriteWithModel", "TrainItYourself",
                 "WatchInduction", "ContinueText")
#: The synced traits a widget that stores its data (not a seed) is rebuilt from.
_STORED = {"DecodingStepper": ("tokens", "step", "query_vectors", "key_vectors", "value_vectors"),
           "TrainingReplay": ("frames", "sentences", "senses", "index", "sentence")}


def _widget(name: str, state: dict[str, Any]) -> Any:
    """Rebuild one slider from its class name and its synced state."""
    if name == "SoftmaxSharpening":
        return widgets.SoftmaxSharpening(state["d_k"], seed=state["seed"], n_keys=state["n_keys"],
                                         scores=state.get("scores") or None, labels=state.get("labels") or None,
                                         show_scaled=state.get("show_scaled", True))
    if name == "TemperatureSlider":
        return widgets.TemperatureSlider(state["scores"], temperature=state["temperature"], labels=state["labels"])
    if name == "DotProductSpread":
        return widgets.DotProductSpread(state["dim"], seed=state["seed"], scaled=state["scaled"])
    if name == "GeometricAttention":
        return widgets.GeometricAttention(state["query"], state["key_vectors"], state["value_vectors"], state["words"])
    if name == "RotaryPositions":
        return widgets.RotaryPositions(state["query_position"], state["key_position"], pair=state["pair"],
                                       sinusoidal=state["sinusoidal"])
    if name == "AskModel":
        return widgets.AskModel(state["weights"], sentence=state["sentence"])
    if name == "WriteWithModel":
        return widgets.WriteWithModel.from_state(state)
    if name == "ContinueText":
        return widgets.ContinueText.from_state(state)
    if name == "TrainItYourself":
        return widgets.TrainItYourself(state["settings"], ask=state.get("ask", ""))
    if name == "WatchInduction":
        return widgets.WatchInduction(state["settings"])
    if name in _STORED:
        return _restored(getattr(widgets, name), {k: state[k] for k in _STORED[name]})
    raise ValueError(f"no print figure for widget {name!r}")


def _restored(cls: type, traits: dict[str, Any]) -> Any:
    """A widget whose page state is its data (the stored checkpoints of a training replay, the vectors
    of a decoding stepper), rebuilt from that state without the objects that made it (a training run):
    the anywidget is created with the synced traits as they were saved, so ``numbers()`` reads them."""
    widget = cls.__new__(cls)
    anywidget.AnyWidget.__init__(widget, **traits)
    return widget


def _from_repr(text: str) -> Any:
    """A slider rebuilt from its text repr, for a notebook saved without its widget state.

    The repr names the state that differs from the defaults (``DotProductSpread(dim=100, seed=0,
    scaled=False)``); keywords the constructor does not take (``n_scores``, ``words``) are dropped.
    """
    call = ast.parse(text.strip(), mode="eval").body
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        raise ValueError(f"not a widget repr: {text!r}")
    if call.func.id in ("TrainingReplay", "AskModel", "WriteWithModel"):
        raise ValueError(f"{call.func.id} holds trained weights: its print figure needs the widget state saved "
                         "with the notebook (execute it with 'make execute')")
    kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    cls = getattr(widgets, call.func.id)
    accepted = inspect.signature(cls.__init__).parameters
    return cls(**{k: v for k, v in kwargs.items() if k in accepted})


def figure(widget: Any) -> tuple[plt.Figure, str]:
    """The default figure of a slider and the sentence that names what moves on the web page."""
    n = widget.numbers()
    name = type(widget).__name__
    if name == "SoftmaxSharpening":
        labels = list(widget.labels) or [f"k{i + 1}" for i in range(len(n["scores"]))]
        groups = {"softmax(q·k)": n["unscaled"]["weights"]}
        if widget.show_scaled:
            groups["softmax(q·k / √d_k)"] = n["scaled"]["weights"]
        ax = plots.grouped_bars(groups, labels, ylabel="weight", title=f"d_k = {widget.d_k}")
        moving = "a slider sets d_k from 1 to 1024"
    elif name == "TemperatureSlider":
        ax = plots.grouped_bars({f"T = {widget.temperature:g}": n["weights"]}, list(widget.labels),
                                ylabel="weight", title=f"softmax(s / T), T = {widget.temperature:g}")
        moving = "a slider sets the temperature T from 0.1 to 10"
    elif name == "DotProductSpread":
        label = f"d = {widget.dim}" + (", divided by √d" if widget.scaled else "")
        ax = plots.histograms({label: n["dots"]}, bins=40, xlabel="q·k", title=f"1000 dot products, {label}")
        moving = "a slider sets the dimension d from 1 to 1000, and a box divides by √d"
    elif name == "GeometricAttention":
        fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.6))
        words = list(widget.words)
        plots.similarity_qk(widget.query, dict(zip(words, widget.key_vectors)), ax=left, title="query and keys")
        plots.weighted_sum_v(dict(zip(words, widget.value_vectors)), n["weights"], ax=right,
                             title="the context in value space")
        moving = "you drag the query (or move it with two sliders) and the weights and the context follow"
        return fig, moving
    elif name == "RotaryPositions":
        m, k = widget.query_position, widget.key_position
        ax = plots.vectors_2d({f"q at {m}": n["query_pair"], f"k at {k}": n["key_pair"]},
                              title=f"pair {widget.pair}, score q·k = {n['score']:.3f}")
        ax.figure.set_size_inches(4.2, 4.2)
        moving = ("two sliders move the query's and the key's positions, two buttons move both together (the "
                  "score stays), a box adds sinusoidal positions instead (the score changes), and a slider picks the pair")
    elif name in ("DecodingStepper", "TrainingReplay", "AskModel"):
        return _learned_figure(widget, n)
    elif name == "WriteWithModel":
        return _writer_figure(widget, n)
    elif name == "ContinueText":
        return _continue_figure(widget, n)
    elif name == "TrainItYourself":
        return _trainer_figure(widget, n)
    elif name == "WatchInduction":
        return _induction_figure(widget, n)
    else:
        raise ValueError(f"no print figure for widget {name!r}")
    return ax.figure, moving


def _learned_figure(widget: Any, n: dict[str, Any]) -> tuple[plt.Figure, str]:
    """The two-panel print figures of the decoding and learning widgets (chapters 15 and 17)."""
    name = type(widget).__name__
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [1, 1.3]})
    if name == "DecodingStepper":
        step, tokens = widget.step, list(widget.tokens)[:widget.step]
        cache = np.hstack([np.asarray(widget.key_vectors)[:step], np.asarray(widget.value_vectors)[:step]])  # (step, 4)
        plots.heatmap(cache, row_labels=tokens, col_labels=["k1", "k2", "v1", "v2"], ax=left, vmin=None,
                      cbar_label="value", title=f"the KV cache after {step} tokens")
        left.set(xlabel="cached key and value", ylabel="token")
        left.tick_params(axis="y", labelrotation=0)
        plots.grouped_bars({"scaled score": n["scores"], "weight": n["weights"]}, tokens, ax=right,
                           title=f"the query of '{tokens[-1]}' over the cache")
        fig.tight_layout(w_pad=3)
        return fig, "a slider and previous/next buttons add one token at a time, and the cache and the weights follow"
    if name == "TrainingReplay":
        frames = widget.frames
        words = list(widget.sentences[widget.sentence])
        plots.heatmap(n["map"], row_labels=words, col_labels=words, ax=left, vmax=1.0, annotate=False,
                      title=f"step {n['step']}: {n['sense']} (p = {n['probability']:.2f})")
        left.set(xlabel="word attended to", ylabel="word")
        left.tick_params(axis="y", labelrotation=0)
        steps = [f["step"] for f in frames]
        plots.curves(steps, {"training loss": [f["loss"] for f in frames]}, ax=right, xlabel="update step",
                     ylabel="cross-entropy loss", title=f"held-out accuracy {n['test_accuracy']:.2f}, "
                     f"weight on the cue {n['test_attention_to_cue']:.2f}")
        right.plot([n["step"]], [n["loss"]], "o", color=style.PALETTE["red"], markersize=9, zorder=3)
        fig.tight_layout(w_pad=3)
        return fig, (f"a slider moves through the {len(frames)} stored checkpoints of the training run and a menu "
                     "picks the sentence")
    if "error" in n:
        raise ValueError(f"the AskModel's sentence {widget.sentence!r} has no answer to print: {n['error']}")
    ambiguous = n["words"][n["query"]]
    plots.grouped_bars({f"attention of '{ambiguous}'": n["row"]}, n["words"], ax=left,
                       title=f"'{widget.sentence}'")
    plots.grouped_bars({"probability": n["probs"]}, list(widget.senses), ax=right,
                       title=f"predicted sense: {n['sense']}")
    right.tick_params(axis="x", labelrotation=20)
    fig.tight_layout(w_pad=3)
    return fig, "you type a sentence (or click words of the vocabulary) and the trained model answers in the page"


def _trainer_figure(widget: Any, n: dict[str, Any]) -> tuple[plt.Figure, str]:
    """Chapter 17's "train it yourself" with its default settings, trained to the end: the loss and the
    held-out accuracy at every step, and the watched sentence's attention row after the last step."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [1.3, 1]})
    steps = list(range(len(n["losses"])))
    plots.curves(steps, {"training loss": n["losses"], "held-out accuracy": n["accuracies"]}, ax=left,
                 xlabel="update step", ylabel="", title=f"trained in the page: {n['step']} steps")
    words, ambiguous = n["words"], {s["word"] for s in widget.settings["senses"]}
    plots.grouped_bars({"attention": n["rows"][-1]}, words, ax=right,
                       title=f"where '{next(w for w in words if w in ambiguous)}' looks after training")
    right.tick_params(axis="x", labelrotation=20)
    fig.tight_layout(w_pad=3)
    return fig, ("you edit the senses, cue words and sentences, set the model and the training, and the page trains "
                 "it step by step, drawing these curves and the attention row as it learns")


def _induction_figure(widget: Any, n: dict[str, Any]) -> tuple[plt.Figure, str]:
    """Chapter 20's widget with its default settings, trained to the end: the losses on the two copies and
    every head's prefix-matching score at every step."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    steps, heads = list(range(len(n["losses"]))), widget.settings["heads"]
    plots.curves(steps, {"second copy": n["second"], "first copy": n["first"]}, ax=left, xlabel="update step",
                 ylabel="nats", title=f"loss, trained in the page: {n['step']} steps")
    plots.curves(steps, {f"L{k // heads + 1}H{k % heads + 1}": [p[k // heads][k % heads] for p in n["prefix"]]
                         for k in range(widget.settings["layers"] * heads)}, ax=right, xlabel="update step",
                 ylabel="score", title="prefix-matching score of each head")
    fig.tight_layout(w_pad=3)
    return fig, ("you set the layers, heads, sizes, repeat lengths and training, and the page trains the model step by "
                 "step, drawing these curves and each head's attention pattern as it learns")


def _writer_figure(widget: Any, n: dict[str, Any]) -> tuple[plt.Figure, str]:
    """Chapter 19's widget as the page opens: the five most likely words of the last new word, and
    the watched head's row of every new word over the context (0 where a word did not exist yet)."""
    if "error" in n or not n["new"]:
        raise ValueError(f"the WriteWithModel has nothing written to print: {n.get('error', 'steps = 0')}")
    block, head = widget.watch
    words = n["prompt"] + n["new"]
    rows = np.zeros((len(n["new"]), len(words) - 1))  # (new words, context positions)
    for k, row in enumerate(n["rows"]):
        rows[k, : len(row)] = row
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.6), gridspec_kw={"width_ratios": [1, 2.4]})
    top = [widget.vocab[i] for i in n["candidates"][-1][:5]]
    plots.grouped_bars({"probability": n["probs"][-1][:5]}, top, ax=left,
                       title=f"word {len(n['new'])}, '{n['new'][-1]}': the five most likely")
    plots.heatmap(rows, row_labels=[f"{k + 1} {w}" for k, w in enumerate(n["new"])], col_labels=words[:-1], ax=right,
                  annotate=False, vmax=1.0, title=f"where each new word's query looked (block {block + 1}, head {head + 1})")
    right.set(xlabel="cached position", ylabel="new word")
    right.tick_params(axis="y", labelrotation=0)
    right.tick_params(axis="x", labelsize=7)
    fig.suptitle(textwrap.fill(" ".join(n["prompt"]) + " → " + " ".join(n["new"]), 120), fontsize=10)
    fig.tight_layout(w_pad=3)
    return fig, ("you type a prompt (or click words), set the temperature, top-k, top-p and a seed, and the model writes "
                 "in the page, one word at a time")


def _continue_figure(widget: Any, n: dict[str, Any]) -> tuple[plt.Figure, str]:
    """Chapter 21's widget as the page opens: the five most likely characters after the last one written,
    and every head's row for the last character over the characters the model read."""
    if "error" in n or not n["new"]:
        raise ValueError(f"the ContinueText has nothing written to print: {n.get('error', 'steps = 0')}")
    label = {"\n": "↵", " ": "·"}
    rows = n["rows"][-1]  # (blocks, heads, read)
    blocks, heads, read = rows.shape
    text = n["prompt"] + n["new"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.6), gridspec_kw={"width_ratios": [1, 3.2]})
    top = [label.get(widget.vocab[i], widget.vocab[i]) for i in n["candidates"][-1][:5]]
    last = label.get(n["new"][-1], n["new"][-1])
    plots.grouped_bars({"probability": n["probs"][-1][:5]}, top, ax=left,
                       title=f"character {len(n['new'])}, '{last}': the five most likely")
    plots.heatmap(rows.reshape(blocks * heads, read), row_labels=[f"block {b + 1}, head {a + 1}" for b in range(blocks)
                                                                  for a in range(heads)],
                  col_labels=[label.get(c, c) for c in text[len(text) - 1 - read:len(text) - 1]], ax=right, annotate=False,
                  vmax=1.0, title="where each head looked from the last character")
    right.set(xlabel="the characters read", ylabel="")
    right.tick_params(axis="y", labelrotation=0)
    right.tick_params(axis="x", labelsize=7, labelrotation=0)
    fig.suptitle(textwrap.fill(text.replace("\n", " ↵ "), 120), fontsize=10)
    fig.tight_layout(w_pad=3)
    return fig, ("you type a beginning, set the temperature, top-k, top-p and a seed, and the model continues it in the "
                 "page, one character at a time, showing where each head looked")


def _png(fig: plt.Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def print_notebook(nb: dict[str, Any]) -> int:
    """Replace every widget output of ``nb`` in place; return how many were replaced."""
    state = nb.get("metadata", {}).get("widgets", {}).get(STATE_MIME, {}).get("state", {})
    replaced = 0
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        outputs = []
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if WIDGET_MIME not in data:
                outputs.append(out)
                continue
            text = "".join(data.get("text/plain", ""))
            name = text.split("(", 1)[0]
            model = state.get(data[WIDGET_MIME]["model_id"], {}).get("state")
            if name in PRINT_FIGURES:
                fig, moving = figure(_widget(name, model) if model else _from_repr(text))
                outputs.append({"output_type": "display_data", "metadata": {},
                                "data": {"image/png": _png(fig), "text/plain": text}})
                line = f"*Interactive on the web page: {moving}. The printed edition shows the starting state.*"
            else:  # a widget with no print figure: say what is missing
                line = f"*Interactive on the web page: `{text}`. The printed edition has no figure for it.*"
            outputs.append({"output_type": "display_data", "metadata": {}, "data": {"text/markdown": line}})
            replaced += 1
        cell["outputs"] = outputs
    return replaced


#: Unicode sub- and superscript letters the site's titles use (√dₖ, Kᵀ), and the role that sets each
#: in print: LaTeX's heading font has no glyph for them and would print a blank box.
_SCRIPT_LETTERS = {"ₖ": ("sub", "k"), "ᵥ": ("sub", "v"), "ᵢ": ("sub", "i"), "ⱼ": ("sub", "j"), "ₙ": ("sub", "n"),
                   "ₘ": ("sub", "m"), "ᵀ": ("sup", "T")}
_SCRIPT_RUN = re.compile(f"[{''.join(_SCRIPT_LETTERS)}]")


def _role(match: re.Match[str]) -> str:
    role, letter = _SCRIPT_LETTERS[match.group(0)]
    return f"{{{role}}}`{letter}`"


def _headings_with_roles(text: str) -> tuple[str, int]:
    lines = text.split("\n")
    changed = 0
    for i, line in enumerate(lines):
        if line.startswith("#") and _SCRIPT_RUN.search(line):
            lines[i] = _SCRIPT_RUN.sub(_role, line)
            changed += 1
    return "\n".join(lines), changed


def print_headings(nb: dict[str, Any]) -> int:
    """Set the sub- and superscript letters of every markdown heading of ``nb`` (in markdown cells and
    in Markdown outputs, such as the audit's tables) with the ``{sub}`` and ``{sup}`` roles, in place;
    return how many headings changed."""
    changed = 0
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            cell["source"], n = _headings_with_roles("".join(cell["source"]))
            changed += n
        for out in cell.get("outputs", []):
            if "text/markdown" in out.get("data", {}):
                out["data"]["text/markdown"], n = _headings_with_roles("".join(out["data"]["text/markdown"]))
                changed += n
    return changed


def write(dest: Path) -> int:
    """Write the print copy into ``dest`` (emptied first); return the number of widgets replaced."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        else:
            shutil.copy(src, dest / name)
    # In LaTeX the root page's sections would become chapters 1-4 and shift every chapter's number;
    # in print they are run-in headings (rubrics), so "Words to numbers" is chapter 1 as on the site.
    intro = dest / "book" / "intro.md"
    intro.write_text(re.sub(r"^## (.+)$", r"```{rubric} \1\n```", intro.read_text(encoding="utf-8"), flags=re.M),
                     encoding="utf-8")
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    config["execute"]["execute_notebooks"] = "off"
    (dest / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    if (ROOT / "node_modules").exists():  # the site extension looks for it; the LaTeX build needs none of it
        (dest / "node_modules").symlink_to(ROOT / "node_modules")
    total = 0
    for path in sorted((dest / "book").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        n = print_notebook(nb)
        headings = print_headings(nb)
        if n or headings:
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        total += n
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="write the print copy of the book")
    parser.add_argument("dest", type=Path)
    args = parser.parse_args(argv)
    n = write(args.dest.resolve())
    print(f"print copy in {args.dest}: {n} sliders replaced by their default figure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
