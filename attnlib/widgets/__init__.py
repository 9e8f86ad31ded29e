"""Interactive sliders for the book (anywidget): each redraws in the browser, so it works in a live
kernel and on the static site. ``attnlib.widgets._math`` computes the same numbers in Python.

Chapters: "Softmax", "Why divide by √d_k", "Worked example: 'it'", "Interactive playground", "Attention that learns".
"""

from .learned import AskModel, TrainingReplay
from .sliders import DotProductSpread, GeometricAttention, SoftmaxSharpening, TemperatureSlider

__all__ = ["AskModel", "TrainingReplay", "DotProductSpread", "GeometricAttention", "SoftmaxSharpening", "TemperatureSlider"]
