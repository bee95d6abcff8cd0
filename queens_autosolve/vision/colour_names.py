"""Names for region colours, so hints speak of "the purple region" as a person sees the board
(region letters exist only in text puzzles).

A colour takes the name of the nearest colour of a small named palette, by CIE Lab distance.
The regions of one board always get different names: the closest (region, name) pairs are
matched first, and a region whose nearest name is taken gets its next nearest ("light green"
beside "green"). Ties go to the lower region number, then the earlier name.

>>> region_colour_names([(187, 163, 226), (255, 201, 146), (179, 223, 160), (138, 204, 109)])
('purple', 'light orange', 'light green', 'green')
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from queens_autosolve.vision.sample import to_lab

# Each name with a typical sRGB colour for it; light and dark variants give similar region
# colours names of their own.
NAMED_COLOURS: tuple[tuple[str, tuple[int, int, int]], ...] = (
    ("red", (225, 60, 50)),
    ("coral", (255, 125, 95)),
    ("orange", (255, 155, 60)),
    ("light orange", (255, 205, 150)),
    ("yellow", (250, 222, 70)),
    ("light yellow", (238, 242, 150)),
    ("green", (130, 200, 100)),
    ("light green", (180, 225, 160)),
    ("dark green", (45, 125, 60)),
    ("teal", (80, 175, 165)),
    ("cyan", (100, 235, 232)),
    ("light blue", (165, 205, 245)),
    ("blue", (110, 150, 235)),
    ("dark blue", (35, 60, 160)),
    ("purple", (185, 160, 225)),
    ("violet", (190, 130, 225)),
    ("lilac", (215, 190, 226)),
    ("pink", (240, 160, 200)),
    ("magenta", (250, 140, 240)),
    ("brown", (150, 100, 60)),
    ("beige", (190, 180, 155)),
    ("grey", (150, 150, 150)),
    ("light grey", (222, 222, 222)),
    ("white", (250, 250, 250)),
    ("black", (25, 25, 25)),
)
_NAMED_LAB = to_lab(np.array([rgb for _, rgb in NAMED_COLOURS], float))


def colour_name(rgb: Sequence[int]) -> str:
    """The name of the nearest named colour.

    >>> colour_name((98, 239, 234)), colour_name((223, 223, 223))
    ('cyan', 'light grey')
    """
    distances = np.linalg.norm(_NAMED_LAB - to_lab(np.asarray(rgb, float)), axis=1)
    return NAMED_COLOURS[int(np.argmin(distances))][0]


def region_colour_names(colours: Sequence[Sequence[int]]) -> tuple[str, ...] | None:
    """A different name for each region's colour (``colours[i]`` is region i's sRGB), each the
    nearest one still free when the closer matches of other regions have been made; None for
    more regions than there are names (such boards keep their letters)."""
    if len(colours) > len(NAMED_COLOURS):
        return None
    lab = to_lab(np.asarray(colours, float).reshape(-1, 3))
    distances = np.linalg.norm(lab[:, None, :] - _NAMED_LAB[None, :, :], axis=2)
    pairs = sorted((round(float(distances[g, k]), 6), g, k)
                   for g in range(len(colours)) for k in range(len(NAMED_COLOURS)))
    names: dict[int, str] = {}
    used: set[int] = set()
    for _, region, name in pairs:
        if region not in names and name not in used:
            names[region] = NAMED_COLOURS[name][0]
            used.add(name)
    return tuple(names[g] for g in range(len(colours)))


def hex_rgb(colour: str) -> tuple[int, int, int]:
    """``#RRGGBB`` as three 0..255 numbers."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
