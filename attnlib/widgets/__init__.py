"""Interactive sliders for the book (anywidget): each redraws in the browser, so it works in a live
kernel and on the static site. ``attnlib.widgets.slider_math`` computes the same numbers in Python (the
reference the browser tests compare the page with), and ``dom_helpers_js`` is the one DOM helper every page
script of the book shares (the widgets' and the exercises').

Chapters: "Softmax", "Why divide by √d_k", "Worked example: 'it'", "Decoding",
"Where words are: positions", "Attention that learns", "A model that writes", "Attention on real text".
"""

from . import slider_math
from .continue_text import ContinueText
from .decoding import DecodingStepper
from .induction import WatchInduction
from .learned import AskModel, TrainingReplay
from .rotary import RotaryPositions
from .sliders import (
           DotProductSpread,
           GeometricAttention,
           SoftmaxSharpening,
           TemperatureSlider,
           dom_helpers_js,
)
from .trainer import TrainItYourself
from .writer import WriteWithModel

__all__ = ["AskModel", "ContinueText", "DecodingStepper", "DotProductSpread", "GeometricAttention", "RotaryPositions", "SoftmaxSharpening",
           "TemperatureSlider", "TrainItYourself", "TrainingReplay", "WatchInduction", "WriteWithModel", "dom_helpers_js", "slider_math"]
