"""The widgets of "Attention that learns": replay a training run checkpoint by checkpoint, and ask the
trained model about a sentence. Both are anywidgets whose ES modules (``replay.js``, ``ask.js``) work in
a live kernel and on the static page.

* ``TrainingReplay`` stores, for every checkpoint of a ``attnlib.companions.learning.TrainingRun``, what
  ``attnlib.companions.learning.replay_frame`` computes (step, training loss, held-out figures, the attention map
  and sense probabilities of a few sentences); the page shows the stored numbers.
* ``AskModel`` stores the trained parameters; its ES module runs embedding → attention → readout in
  float64, the same computation as ``attnlib.companions.learning.predict_np``.

Chapter: "Attention that learns" (book/17_learning.ipynb).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import traitlets

from ..companions import learning
from .sliders import _HERE, _es_module, _Slider

_DIGITS = 10  # stored numbers are rounded to 10 decimals: far below what the page prints


def _rounded(x: Any) -> Any:
    return np.round(np.asarray(x, dtype=np.float64), _DIGITS).tolist()


class _LearnedWidget(_Slider):
    _css = _Slider._css + "\n" + (_HERE / "learned.css").read_text(encoding="utf-8")


class TrainingReplay(_LearnedWidget):
    """A checkpoint slider over a training run of ``attnlib.companions.learning.train_sense_model``: the attention
    map and predicted sense of each sentence in ``sentences``, the training loss (with its curve) and
    the held-out accuracy and attention to the cue word at that checkpoint.
    ``index`` (synced) is the checkpoint shown; ``numbers()`` is what the page shows.
    Used in: "Attention that learns".
    """

    _esm = _es_module("replay.js")
    index = traitlets.Int(0).tag(sync=True)
    sentence = traitlets.Int(0).tag(sync=True)
    frames = traitlets.List(traitlets.Dict()).tag(sync=True)
    sentences = traitlets.List(traitlets.List(traitlets.Unicode())).tag(sync=True)
    senses = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _repr_traits = ("index", "sentence")

    def __init__(self, run: learning.TrainingRun, sentences: Sequence[str], *, index: int = 0, sentence: int = 0) -> None:
        if not isinstance(run, learning.TrainingRun):
            raise TypeError(f"run must be an attnlib.companions.learning.TrainingRun, got {type(run).__name__}")
        if isinstance(sentences, str) or not isinstance(sentences, Sequence) or not sentences:
            raise ValueError(f"sentences must be a non-empty list of sentences, got {sentences!r:.60}")
        n = len(run.checkpoints)
        run.checkpoint(index)  # IndexError naming the range if out of range
        index = index % n
        if isinstance(sentence, bool) or not isinstance(sentence, int) or not 0 <= sentence < len(sentences):
            raise ValueError(f"sentence must be an index in [0, {len(sentences)}), got {sentence!r}")
        frames = []
        for i in range(n):
            out = [learning.replay_frame(run, i, s) for s in sentences]
            f = out[0]
            frames.append({"step": f["step"], "loss": f["loss"], "test_accuracy": f.get("test_accuracy", float("nan")),
                           "test_attention_to_cue": f.get("test_attention_to_cue", float("nan")),
                           "maps": [_rounded(o["weights"]) for o in out], "probs": [_rounded(o["probs"]) for o in out]})
        words = [learning.words_of(s) for s in sentences]  # each was checked by replay_frame
        super().__init__(frames=frames, sentences=words, senses=list(learning.SENSES), index=index, sentence=sentence)

    @traitlets.validate("index")
    def _check_index(self, proposal: dict[str, Any]) -> int:
        value, n = proposal["value"], len(self.frames) or 1
        if not 0 <= value < n:
            raise ValueError(f"checkpoint index {value} is out of range: the replay has {n} checkpoints (0 to {n - 1})")
        return value

    def numbers(self) -> dict[str, Any]:
        """What the page shows now: step, training loss, held-out figures, map, sense and its probability."""
        f = self.frames[self.index]
        probs = np.asarray(f["probs"][self.sentence])
        return {"step": f["step"], "loss": f["loss"], "test_accuracy": f["test_accuracy"],
                "test_attention_to_cue": f["test_attention_to_cue"], "map": np.asarray(f["maps"][self.sentence]),
                "sense": learning.SENSES[int(np.argmax(probs))], "probability": float(probs.max())}


class AskModel(_LearnedWidget):
    """A sentence box over a trained ``SenseModel``: the page runs the model on the typed sentence and
    shows the ambiguous word's attention row and the predicted sense (or a message for an empty
    sentence, an unknown word, too many words, or not exactly one ambiguous word). A sentence outside
    the training pattern (``attnlib.companions.learning.outside_training``: no cue word, cue words of two senses)
    gets a caution that its answer means nothing, with the model's output shown as such.
    ``sentence`` is synced; ``numbers()`` is ``attnlib.companions.learning.predict_np`` on it.
    Used in: "Attention that learns".
    """

    _esm = _es_module("ask.js")
    sentence = traitlets.Unicode("").tag(sync=True)
    weights = traitlets.Dict().tag(sync=True)
    vocab = traitlets.List(traitlets.Unicode()).tag(sync=True)
    senses = traitlets.List(traitlets.Unicode()).tag(sync=True)
    ambiguous = traitlets.List(traitlets.Unicode()).tag(sync=True)
    cues = traitlets.Dict(traitlets.Unicode()).tag(sync=True)
    max_len = traitlets.Int(learning.MAX_LEN).tag(sync=True)

    def __init__(self, state: Mapping[str, Any] | learning.TrainingRun, sentence: str = "we sat on the bank by the river") -> None:
        if isinstance(state, learning.TrainingRun):
            state = state.checkpoint(-1).state
        s = learning.check_state(state)
        if not isinstance(sentence, str):
            raise TypeError(f"sentence must be a str, got {type(sentence).__name__}")
        super().__init__(weights={k: v.tolist() for k, v in s.items()}, vocab=list(learning.VOCAB),
                         senses=list(learning.SENSES), ambiguous=list(learning.AMBIGUOUS), cues=dict(learning.CUE_SENSE),
                         sentence=sentence)

    def __repr__(self) -> str:
        return f"AskModel(sentence={self.sentence!r})"

    def numbers(self) -> dict[str, Any]:
        """``predict_np`` on the current sentence, or ``{"error": message}`` as the page shows it."""
        try:
            return learning.predict_np(self.weights, self.sentence)
        except ValueError as err:
            return {"error": str(err)}
