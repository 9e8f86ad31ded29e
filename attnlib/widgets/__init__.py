"""Interactive sliders for the book (anywidget): each redraws in the browser, so it works in a live
kernel and on the static site. ``attnlib.widgets._math`` computes the same numbers in Python.

Chapters: "Softmax", "Why divide by √d_k", "Worked example: 'it'", "Interactive playground", "Decoding",
"Attention that learns".
"""

from .decoding import DecodingStepper
from .learned import AskModel, TrainingReplay
from .sliders import DotProductSpread, GeometricAttention, SoftmaxSharpening, TemperatureSlider

__all__ = ["AskModel", "DecodingStepper", "DotProductSpread", "GeometricAttention", "SoftmaxSharpening",
           "TemperatureSlider", "TrainingReplay"]
