"""The two single-channel views of an image that the readers measure darkness on.

Grid lines, X marks, crowns and dark pages are dark in every channel; the red stripes a page paints
over cells in conflict darken luma but not red. So "dark" means dark in both `gray` and `red`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Shades:
    gray: np.ndarray  # luma, uint8 HxW
    red: np.ndarray  # the red channel, uint8 HxW

    @property
    def shape(self) -> tuple[int, int]:
        return self.gray.shape  # type: ignore[return-value]


def shades_of(rgb: np.ndarray) -> Shades:
    """Luma and red of an RGB uint8 image."""
    return Shades(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), cv2.extractChannel(rgb, 0))
