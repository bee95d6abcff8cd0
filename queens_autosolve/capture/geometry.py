"""`Rect`, the one box type from capture to actuator: a window, a grabbed frame and a board box
in screen points, and a board box in image pixels (`BoardReading.box`).

Standard library only, so that vision (used offline, on files) and the actuator can import it
without the X11 side of capture: `capture/__init__.py` loads Xlib and mss only when `Desktop`
and friends are asked for.

Whole units everywhere: pixels and X11 root coordinates are whole numbers. Where a box comes
from fractional values (an image box mapped to screen points at a HiDPI scale of 1.5),
`Rect.around` takes the smallest whole rectangle holding it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# The four edges of a rectangle, as named in messages ("the board is cut off at the bottom").
EDGES = ("left", "top", "right", "bottom")


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle: `left`, `top`, `width`, `height`, in screen points (X11 root
    coordinates) or image pixels, as the field holding it says."""

    left: int
    top: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    @property
    def empty(self) -> bool:
        return self.width <= 0 or self.height <= 0

    def intersection(self, other: Rect) -> Rect:
        left, top = max(self.left, other.left), max(self.top, other.top)
        right, bottom = min(self.right, other.right), min(self.bottom, other.bottom)
        return Rect(left, top, max(0, right - left), max(0, bottom - top))

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x < self.right and self.top <= y < self.bottom

    def edges_outside(self, within: Rect) -> tuple[str, ...]:
        """The edges of this rectangle that lie outside `within` (cut off when clipped to it)."""
        cut = (self.left < within.left, self.top < within.top,
               self.right > within.right, self.bottom > within.bottom)
        return tuple(edge for edge, out in zip(EDGES, cut) if out)

    def edges_near(self, width: int, height: int, margin: int) -> tuple[str, ...]:
        """The edges of a `width` x `height` picture that this box comes within `margin` of."""
        near = (self.left < margin, self.top < margin,
                self.right > width - margin, self.bottom > height - margin)
        return tuple(edge for edge, hit in zip(EDGES, near) if hit)

    def grown(self, margin: int) -> Rect:
        return Rect(self.left - margin, self.top - margin, self.width + 2 * margin, self.height + 2 * margin)

    @classmethod
    def around(cls, x: float, y: float, width: float, height: float) -> Rect:
        """The smallest whole rectangle holding a box of fractional (x, y, width, height)."""
        left, top = math.floor(x), math.floor(y)
        return cls(left, top, math.ceil(x + width) - left, math.ceil(y + height) - top)

    def as_mss(self) -> dict[str, int]:
        return {"left": self.left, "top": self.top, "width": self.width, "height": self.height}

    def as_tuple(self) -> tuple[int, int, int, int]:
        """(left, top, width, height), for JSON and for slicing arrays."""
        return self.left, self.top, self.width, self.height
