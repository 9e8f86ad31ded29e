"""Interactive sliders for the book (anywidget): each redraws in the browser, so it works in a live
kernel and on the static site. ``attnlib.widgets._math`` computes the same numbers in Python.

Chapters: "Softmax", "Why divide by √d_k", "Worked example: 'it'", "Interactive playground", "Decoding".
"""

from .decoding import DecodingStepper
from .sliders import DotProductSpread, GeometricAttention, SoftmaxSharpening, TemperatureSlider

__all__ = ["DecodingStepper", "DotProductSpread", "GeometricAttention", "SoftmaxSharpening", "TemperatureSlider"]
