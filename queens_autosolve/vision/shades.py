"""The views of an image that the readers measure darkness on, and the red conflict stripes that
must not count as darkness.

Luma: grid lines, X marks, crowns and dark pages are dark in it, and JPEG keeps it at full
resolution. Pages paint thin red diagonal stripes over cells in conflict (LinkedIn and the practice
page alike); those darken luma too, so they are recognised by colour: red kept, green and blue
pulled down, unlike a gray line or mark, which pulls all three down.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from queens_autosolve.capture.geometry import Rect
from queens_autosolve.vision.stats import median

STRIPE_MIN_RED = 110
STRIPE_MAX_GREEN_BLUE = 140
STRIPE_REDNESS = 30  # red above both green and blue by at least this
STRIPE_KEEPS_RED = 0.85  # of the red around it: a stripe keeps this much, a line or mark less
STRIPE_DARKER = 20  # luma levels below the lightest neighbour (JPEG noise stays under it)
# Blue levels below the bluest neighbour: the stripes' red has almost no blue, so they take blue
# from every region colour, while a cell beside a gold crown (no blue) keeps all of its own.
STRIPE_LESS_BLUE = 5
# The middle of a cell, where marks sit (crowns 55% of the cell): left out when counting stripe
# pixels, as the rim of a gold crown on a coral cell (after JPEG) can pass for stripes there.
MARK_SPAN = 0.6
KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))
NEAR = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))


@dataclass(frozen=True)
class Shades:
    rgb: np.ndarray  # the image, uint8 HxWx3
    gray: np.ndarray  # its luma, uint8 HxW

    @property
    def shape(self) -> tuple[int, int]:
        return self.gray.shape[0], self.gray.shape[1]

    @cached_property
    def local_dark(self) -> np.ndarray:
        """How much darker each pixel is than the lightest within two pixels (uint8 luma levels):
        high on lines, marks and stripes, zero inside flat cells."""
        return cv2.subtract(cv2.dilate(self.gray, KERNEL), self.gray)

    @cached_property
    def stripes(self) -> np.ndarray:
        """The red conflict stripes of the whole image (see `stripe_mask`)."""
        return stripe_mask(self.rgb, self.gray)

    def stripes_in(self, box: Rect) -> np.ndarray:
        """The red conflict stripes inside a box, at the box's own coordinates."""
        x, y, w, h = box.as_tuple()
        if w <= 0 or h <= 0:
            return np.zeros((max(h, 0), max(w, 0)), np.uint8)
        return stripe_mask(self.rgb[y : y + h, x : x + w], self.gray[y : y + h, x : x + w])


def stripe_mask(rgb: np.ndarray, gray: np.ndarray) -> np.ndarray:
    """Pixels of red conflict stripes (uint8 mask): darker than a neighbour in luma and in blue,
    stripe-coloured, and keeping (almost) the red of their neighbours, which a line or mark over a
    coral cell does not.

    The coral cell colour is itself stripe-coloured, and a gold crown is lighter than it: without
    the blue test the coral around a solved board's crown would pass for stripes."""
    red, green, blue = cv2.split(rgb)
    green_blue = cv2.max(green, blue)
    kept = cv2.compare(scaled(cv2.dilate(red, NEAR), STRIPE_KEEPS_RED), red, cv2.CMP_LE)
    coloured = cv2.bitwise_and(
        compare_with(red, STRIPE_MIN_RED, cv2.CMP_GE),
        compare_with(green_blue, STRIPE_MAX_GREEN_BLUE, cv2.CMP_LE),
    )
    reddish = compare_with(cv2.subtract(red, green_blue), STRIPE_REDNESS, cv2.CMP_GE)
    # darker than a direct neighbour: a 2 px stripe always borders its cell, while a cell's own
    # pixels are only darker than a lighter cell two pixels away, across a line
    darker = compare_with(cv2.subtract(cv2.dilate(gray, NEAR), gray), STRIPE_DARKER, cv2.CMP_GE)
    less_blue = compare_with(cv2.subtract(cv2.dilate(blue, NEAR), blue), STRIPE_LESS_BLUE, cv2.CMP_GE)
    shaded = cv2.bitwise_and(darker, less_blue)
    return cv2.bitwise_and(cv2.bitwise_and(coloured, reddish), cv2.bitwise_and(kept, shaded))


# OpenCV takes a number as the second operand of its per-element operations (it broadcasts it as
# a scalar), but its stubs list only arrays there: these two wrappers are the one place that says so.
def compare_with(image: np.ndarray, value: float, op: int) -> np.ndarray:
    """`cv2.compare` of every pixel with the number `value` by `op` (a `cv2.CMP_*`): a uint8 mask,
    255 where it holds."""
    return np.asarray(cv2.compare(image, value, op))  # type: ignore[call-overload]  # stubs lack the scalar form


def scaled(image: np.ndarray, factor: float) -> np.ndarray:
    """`image` times `factor`, rounded and saturated to uint8 (`cv2.multiply` by a number)."""
    return np.asarray(cv2.multiply(image, factor, dtype=cv2.CV_8U))  # type: ignore[call-overload]  # stubs lack it too


def share_around_marks(mask: np.ndarray) -> float:
    """The share of set pixels in a cell's (stripe) mask outside the middle square where marks
    sit: about a fifth for a cell under conflict stripes."""
    h, w = mask.shape
    if h == 0 or w == 0:
        return 0.0
    y0, y1 = round(h * (1 - MARK_SPAN) / 2), round(h * (1 + MARK_SPAN) / 2)
    x0, x1 = round(w * (1 - MARK_SPAN) / 2), round(w * (1 + MARK_SPAN) / 2)
    outside = h * w - (y1 - y0) * (x1 - x0)
    count = cv2.countNonZero(mask) - cv2.countNonZero(mask[y0:y1, x0:x1])
    return float(count / max(outside, 1))


def shades_of(rgb: np.ndarray) -> Shades:
    """The views of an RGB uint8 image."""
    return Shades(rgb, cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY))


def without_stripes(shades: Shades, rects: list[Rect]) -> Shades:
    """The image with the red stripes inside the given cell rectangles painted over
    in their cell's colour (the median of the pixels off the stripes).

    A flat fill, not a local median: at device scale 1.5 and up a stripe is 3 px or wider and
    fills over half of a 5x5 window, so a median kept it, and the stripes left next to the grid
    lines read as thick region borders. Pixels that lost much of the cell's red (lines, marks,
    also under a stripe) are kept."""
    rgb = shades.rgb.copy()
    grow = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))  # anti-aliased stripe edges
    for rect in rects:
        x, y, w, h = rect.as_tuple()
        crop = rgb[y : y + h, x : x + w]
        covered = cv2.dilate(shades.stripes_in(rect), grow) > 0
        if covered.all() or not covered.any():
            continue
        colour = median(crop[~covered], axis=0)
        fill = covered & (crop[..., 0] >= STRIPE_KEEPS_RED * colour[0])
        crop[fill] = np.rint(colour).astype(np.uint8)
    return shades_of(rgb)
