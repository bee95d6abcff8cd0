"""The Queens Game page's region colours: twelve light colours people tell apart, also with
red-green colour blindness, and each region's colour chosen so neighbouring regions differ most.

How far apart two colours look is their CIE Lab distance (delta E), for normal vision and for
the two common colour-vision deficiencies (deuteranopia and protanopia, simulated with Machado,
Oliveira and Fernandes 2009 at full severity). The palette was picked from Paul Tol's light
scheme and LinkedIn's own colours as the twelve whose closest pair is farthest apart: in normal
vision every pair is at least 13.9 apart, with either deficiency at least 9.3
(tests/test_web_game_look.py checks both).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from queens_autosolve.vision.colour_names import hex_rgb
from queens_autosolve.vision.sample import to_lab

PALETTE: tuple[str, ...] = (
    "#96BEFF", "#FFC992", "#BBCC33", "#FFAABB", "#C387E0", "#FF7B60",
    "#E6F388", "#44BB99", "#62EFEA", "#99DDFF", "#FFE04B", "#D9B38C",
)

# Linear-RGB matrices simulating each deficiency (Machado et al. 2009, severity 1.0).
DEFICIENCIES: dict[str, np.ndarray] = {
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
}


def as_seen_with(rgb: Sequence[int], deficiency: str) -> np.ndarray:
    """The sRGB colour a person with `deficiency` sees for `rgb` (0..255 floats)."""
    srgb = np.asarray(rgb, float) / 255.0
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    seen = np.clip(linear @ DEFICIENCIES[deficiency].T, 0.0, 1.0)
    return np.asarray(255.0 * np.where(seen <= 0.0031308, 12.92 * seen, 1.055 * seen ** (1 / 2.4) - 0.055))


def apart(a: str, b: str) -> float:
    """How far apart two colours look: the least delta E over normal vision and both deficiencies."""
    return _apart(*sorted((a, b)))


@cache
def _apart(a: str, b: str) -> float:
    seen = [(np.asarray(hex_rgb(a), float), np.asarray(hex_rgb(b), float))]
    seen += [(as_seen_with(hex_rgb(a), d), as_seen_with(hex_rgb(b), d)) for d in DEFICIENCIES]
    return min(float(np.linalg.norm(to_lab(x) - to_lab(y))) for x, y in seen)


def region_colours(regions: Sequence[Sequence[int]]) -> list[str]:
    """A palette colour for each region (all different), neighbours as far apart as can be:
    regions with the most neighbours choose first, each the unused colour farthest from its
    coloured neighbours (ties: palette order)."""
    count = 1 + max((max(row) for row in regions), default=-1)
    if count > len(PALETTE):
        raise ValueError(f"{count} regions: the page has colours for {len(PALETTE)}")
    neighbours = _neighbours(regions, count)
    chosen: dict[int, str] = {}
    for region in sorted(range(count), key=lambda g: (-len(neighbours[g]), g)):
        free = [c for c in PALETTE if c not in chosen.values()]
        coloured = [chosen[g] for g in neighbours[region] if g in chosen]
        chosen[region] = max(free, key=lambda c: min((apart(c, other) for other in coloured), default=0.0))
    return [chosen[g] for g in range(count)]


def _neighbours(regions: Sequence[Sequence[int]], count: int) -> list[set[int]]:
    """The regions that share an edge with each region."""
    found: list[set[int]] = [set() for _ in range(count)]
    n = len(regions)
    for r in range(n):
        for c in range(n):
            for rr, cc in ((r + 1, c), (r, c + 1)):
                if rr < n and cc < n and regions[rr][cc] != regions[r][c]:
                    found[regions[r][c]].add(regions[rr][cc])
                    found[regions[rr][cc]].add(regions[r][c])
    return found
