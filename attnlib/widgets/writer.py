"""The widget of "A model that writes": write with the trained language model on the page, word by word.

``WriteWithModel`` stores the model's weights in its state, as the float32 numbers training left them
(base64, little-endian), so the page needs no kernel. Its ES module (``writer.js``) runs the model in
float64 through one KV cache per block and picks each word with the rule of :mod:`attnlib.companions.sampler`
(``candidates``, ``choose``) and the same random numbers (``Mulberry32``): the same prompt, rule and seed
give the same words as Python. For each new word it shows the five most likely words and the attention
row of one head (the chapter's long-range head) over the context, which grows by one word per step.

Its ES module is ``writer_core.js`` (the model, the rule and the controls it shares with
:class:`attnlib.widgets.continue_text.ContinueText`) followed by ``writer.js`` (the story and the watched head).

The Python twin of the page is ``numbers()``: :func:`attnlib.generation.generate` (with a ``Sampler``) on
``stored_model()``, a ``TinyLM`` in float64 holding exactly the stored weights.

Chapter: "A model that writes".
"""

from __future__ import annotations

import base64
import math
from collections.abc import Mapping, Sequence
from typing import Any

import anywidget
import numpy as np
import torch
import traitlets

from .. import generation
from ..companions import sampler
from ..companions.checks import quoted_words
from ..transformer import TinyLM
from .learned import _LearnedWidget
from .sliders import _HERE, _es_module

#: How many learned positions the page keeps. The stories are at most 54 words long, and the positions
#: after them were never trained, so what the model writes there means nothing.
PAGE_CONTEXT = 64
TEMPERATURE_MAX = 3.0  # the page's temperature slider: 0 (greedy), then 0.1 to 3.0
_CONFIG = ("d_model", "num_heads", "d_ff", "n_layers")
_STATE = ("weights", "shapes", "config", "vocab", "watch", "end", "prompt", "temperature", "top_k", "top_p", "seed",
          "steps")


def pack_weights(model: TinyLM, context: int = PAGE_CONTEXT) -> tuple[str, list[list[Any]]]:
    """The model's weights as one base64 string of little-endian float32 numbers, and the layout that
    reads them back (``[name, shape]`` in order). Only the first ``context`` learned positions are kept."""
    parts, layout = [], []
    for name, tensor in model.state_dict().items():
        array = tensor.detach().cpu().numpy()
        if name == "pos.weight":
            array = array[:context]
        parts.append(np.ascontiguousarray(array, dtype="<f4").ravel())
        layout.append([name, list(array.shape)])
    return base64.b64encode(np.concatenate(parts).tobytes()).decode("ascii"), layout


def unpack_weights(blob: str, layout: Sequence[Sequence[Any]]) -> dict[str, np.ndarray]:
    """The arrays (float32) that ``pack_weights`` stored, by name."""
    flat = np.frombuffer(base64.b64decode(blob), dtype="<f4").copy()  # writable
    out, at = {}, 0
    for name, shape in layout:
        n = math.prod(shape)
        out[name] = flat[at:at + n].reshape(shape)
        at += n
    if at != flat.size:
        raise ValueError(f"the stored weights hold {flat.size} numbers but the layout reads {at}")
    return out


def writer_module(view: str) -> str:
    """The ES module of a widget that writes with a ``TinyLM``: the shared model, rule and controls
    (``writer_core.js``), then the widget's own ``view``."""
    return "\n".join((_es_module("writer_core.js"), (_HERE / view).read_text(encoding="utf-8")))


def _page_model(model: TinyLM) -> TinyLM:
    if not isinstance(model, TinyLM):
        raise TypeError(f"model must be an attnlib TinyLM, got {type(model).__name__}")
    full = model.n_layers > 0 and all(b.residual and b.layer_norm for b in model.blocks)
    if not full:
        raise ValueError("the page runs a TinyLM with at least one block, with its residuals and LayerNorms")
    return model


def page_traits(model: TinyLM, rule: sampler.Rule | None, seed: int, context: int) -> dict[str, Any]:
    """The synced traits of a page that runs ``model`` (checked by ``_page_model``): its weights, its
    shape (``config``; ``rope`` only for a model with rotary positions) and the rule and seed it starts
    with (``rule=None`` is greedy)."""
    rule = sampler.Rule() if rule is None else rule
    if not isinstance(rule, sampler.Rule):
        raise TypeError(f"rule must be an attnlib.companions.sampler.Rule, got {type(rule).__name__}")
    blob, shapes = pack_weights(model, context)
    block = model.blocks[0]
    config = {"d_model": model.embed.embedding_dim, "num_heads": block.attn.num_heads, "d_ff": block.ff1.out_features,
              "n_layers": model.n_layers, "context": min(model.context, context), "vocab_size": model.vocab_size}
    if model.rope:
        config["rope"] = True
    return {"weights": blob, "shapes": shapes, "config": config, "seed": sampler.Mulberry32(seed).state,
            "temperature": 0.0 if rule.greedy else float(rule.temperature), "top_k": rule.top_k or model.vocab_size,
            "top_p": 1.0 if rule.top_p is None else float(rule.top_p)}


class WriteWithModel(_LearnedWidget):
    """Write with a trained ``TinyLM`` on the page: a prompt (typed, or assembled from the vocabulary),
    a rule (temperature, 0 for greedy; top-k; top-p) and a seed; "next word" adds one word, "write to
    the end" writes until the end of the story. For each new word: the five most likely words, and
    the attention row of head ``watch = (block, head)`` (counted from 0) over the context.

    ``WriteWithModel(model, vocab, *, watch, prompt="<s>", rule=None, seed=0, steps=0, end="</s>")`` (``rule=None``
    is greedy).
    Synced: ``prompt``, ``temperature`` (0 = greedy), ``top_k`` (the vocabulary's size = every word),
    ``top_p`` (1 = every word), ``seed`` and ``steps`` (the words asked for so far; writing stops early
    at ``end``). ``numbers()`` is what the page shows, computed by ``attnlib.generation``.
    Used in: "A model that writes".
    """

    _esm = writer_module("writer.js")
    _css = _LearnedWidget._css + "\n" + (_HERE / "writer.css").read_text(encoding="utf-8")
    prompt = traitlets.Unicode("<s>").tag(sync=True)
    temperature = traitlets.Float(0.0).tag(sync=True)
    top_k = traitlets.Int(1).tag(sync=True)
    top_p = traitlets.Float(1.0).tag(sync=True)
    seed = traitlets.Int(0).tag(sync=True)
    steps = traitlets.Int(0).tag(sync=True)
    weights = traitlets.Unicode("").tag(sync=True)
    shapes = traitlets.List(traitlets.List()).tag(sync=True)  # not "layout": a DOMWidget trait
    config = traitlets.Dict().tag(sync=True)
    vocab = traitlets.List(traitlets.Unicode()).tag(sync=True)
    watch = traitlets.List(traitlets.Int()).tag(sync=True)
    end = traitlets.Unicode("</s>").tag(sync=True)
    _repr_traits = ("prompt", "temperature", "top_k", "top_p", "seed", "steps")
    _state = _STATE  # the synced traits ``from_state`` reads

    def __init__(self, model: TinyLM, vocab: Sequence[str], *, watch: tuple[int, int], prompt: str = "<s>",
                 rule: sampler.Rule | None = None, seed: int = 0, steps: int = 0, end: str = "</s>") -> None:
        model = _page_model(model)
        if isinstance(vocab, str) or len(vocab) != model.vocab_size or not all(isinstance(w, str) for w in vocab):
            raise ValueError(f"vocab must be the model's {model.vocab_size} words, got {len(vocab)} items")
        if end not in vocab:
            raise ValueError(f"the end word {end!r} is not in the vocabulary")
        watch = generation._check_watch(model, watch)
        self._model: TinyLM | None = None
        super().__init__(**page_traits(model, rule, seed, PAGE_CONTEXT), vocab=list(vocab), watch=list(watch), end=end,
                         prompt=prompt, steps=steps)

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> WriteWithModel:
        """The widget rebuilt from its synced state (a page's embedded widget state), without the model
        that made it: ``numbers()`` then computes what that page shows."""
        widget = cls.__new__(cls)
        widget._model = None
        anywidget.AnyWidget.__init__(widget, **{k: state[k] for k in cls._state})
        return widget

    @traitlets.validate("prompt")
    def _check_prompt_text(self, proposal: dict[str, Any]) -> str:
        if not isinstance(proposal["value"], str):
            raise TypeError(f"prompt must be a str, got {type(proposal['value']).__name__}")
        return proposal["value"]

    @traitlets.validate("temperature")
    def _check_temperature(self, proposal: dict[str, Any]) -> float:
        t = proposal["value"]
        if not 0 <= t <= TEMPERATURE_MAX:
            raise ValueError(f"temperature must be 0 (greedy) or in (0, {TEMPERATURE_MAX}], got {t!r}")
        return t

    @traitlets.validate("top_k")
    def _check_top_k(self, proposal: dict[str, Any]) -> int:
        k, n = proposal["value"], len(self.vocab) or self.config.get("vocab_size", 1)
        if not 1 <= k <= n:
            raise ValueError(f"top_k must be in [1, {n}] ({n}: every word), got {k!r}")
        return k

    @traitlets.validate("top_p")
    def _check_top_p(self, proposal: dict[str, Any]) -> float:
        sampler.Rule(temperature=1.0, top_p=proposal["value"])  # the ValueError of the rule
        return proposal["value"]

    @traitlets.validate("seed")
    def _check_seed(self, proposal: dict[str, Any]) -> int:
        return sampler.Mulberry32(proposal["value"]).state

    @traitlets.validate("steps")
    def _check_steps(self, proposal: dict[str, Any]) -> int:
        s = proposal["value"]
        if not 0 <= s <= self.config.get("context", PAGE_CONTEXT):
            raise ValueError(f"steps must be in [0, {self.config.get('context', PAGE_CONTEXT)}], got {s!r}")
        return s

    @property
    def rule(self) -> sampler.Rule:
        """The rule the traits describe. Temperature 0 is greedy; top_k equal to the vocabulary's size, or
        top_p equal to 1, filters nothing."""
        if self.temperature == 0:
            return sampler.Rule()
        return sampler.Rule(temperature=self.temperature, top_k=self.top_k if self.top_k < len(self.vocab) else None,
                               top_p=self.top_p if self.top_p < 1 else None)

    def stored_model(self) -> TinyLM:
        """A ``TinyLM`` in float64 with exactly the weights the page holds (the float32 numbers, widened)."""
        if self._model is None:
            c = self.config
            kwargs = {k: c[k] for k in _CONFIG}
            model = TinyLM(c["vocab_size"], context=c["context"], rope=c.get("rope", False), **kwargs).double().eval()
            state = {k: torch.from_numpy(v.astype(np.float64)) for k, v in unpack_weights(self.weights, self.shapes).items()}
            model.load_state_dict(state)
            self._model = model
        return self._model

    def prompt_ids(self) -> list[int]:
        """The word ids of the prompt (lower-cased, split on spaces), or a ``ValueError`` the page shows too."""
        words = self.prompt.lower().split()
        index = {w: i for i, w in enumerate(self.vocab)}
        unknown = [w for w in words if w not in index]
        if not words:
            raise ValueError("the prompt is empty: give at least one word (a story starts with <s>)")
        if unknown:
            raise ValueError(f"unknown word{'s' if len(set(unknown)) > 1 else ''} {quoted_words(unknown)}: "
                             f"the model knows only its {len(self.vocab)}-word vocabulary")
        context = self.config["context"]
        if len(words) >= context:
            raise ValueError(f"the prompt has {len(words)} words; it can have at most {context - 1}, so that the "
                             f"model's context of {context} positions has room for the next word")
        return [index[w] for w in words]

    def numbers(self) -> dict[str, Any]:
        """What the page shows: the prompt's words, the new words, and for each new word the logits it was
        chosen from, the candidates of the rule with their probabilities (most likely first) and the
        watched head's attention row; or ``{"error": message}``."""
        try:
            prompt = self.prompt_ids()
        except ValueError as err:
            return {"error": str(err)}
        out: dict[str, Any] = {"prompt": [self.vocab[i] for i in prompt], "new": [], "logits": [], "candidates": [],
                               "probs": [], "rows": []}
        if self.steps == 0:
            return out
        rule = self.rule
        g = generation.generate(self.stored_model(), prompt, min(self.steps, self.config["context"] - len(prompt)),
                                sampler.Sampler(rule, self.seed), stop=self.vocab.index(self.end), watch=tuple(self.watch))
        for logits, row in zip(g.logits, g.attention, strict=True):
            order, probs = sampler.candidates(logits.tolist(), rule)
            out["logits"].append(logits.numpy())
            out["candidates"].append(order)
            out["probs"].append(np.asarray(probs))
            out["rows"].append(row.numpy())
        out["new"] = [self.vocab[i] for i in g.new]
        return out

