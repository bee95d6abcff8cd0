"""A board the page has judged solved, seen under its own win screen: a results dialog over part
of the board, or a dimmed backdrop over all of it. Read only where a whole reading fails: the
board is not read (its covered regions cannot be), only its crowns, which the page paints gold
once the board is solved, as vision.states' `solved_look` does."""

from __future__ import annotations

import numpy as np

from queens_autosolve.vision.lattice import Lattice
from queens_autosolve.vision.locate import locate
from queens_autosolve.vision.reading import BoardNotFound
from queens_autosolve.vision.sample import points_at
from queens_autosolve.vision.shades import shades_of
from queens_autosolve.vision.states import CORE, GOLD_QUEEN, RIM_POINTS, ink_map, resample_cells

# A modal backdrop dims the whole page under the dialog with black at some alpha; the board under
# it is read again with the dimming undone at each of these (the practice page's is 60%).
UNDIM = (2.5, 2.0, 1.67)
MIN_CROWNS = 2  # gold crowns to see: one could be the dialog's own crown over a cell
WHITE = 245  # a cell whose rim is lighter in every channel is the dialog's card, not a region


def shows_a_won_board(rgb: np.ndarray) -> bool:
    """Whether `rgb` shows a board with gold crowns (the page's own sign that it is solved), at
    least MIN_CROWNS of them, placed by the rules (no two in a row or column, none touching),
    as it is or with a backdrop's dimming undone."""
    for factor in (1.0, *UNDIM):
        image = rgb if factor == 1.0 else np.clip(rgb * np.float32(factor), 0, 255).astype(np.uint8)
        try:
            lattice = locate(shades_of(image))
        except BoardNotFound:
            continue
        crowns = gold_crowns(image, lattice)
        if len(crowns) >= MIN_CROWNS and by_the_rules(crowns):
            return True
    return False


def gold_crowns(rgb: np.ndarray, lattice: Lattice) -> list[tuple[int, int]]:
    """Cells whose middle is crown gold against the colour of their rim (cells on the dialog's
    white card left out)."""
    rim, _ = points_at(rgb, lattice, RIM_POINTS)
    background = np.median(rim, axis=2).astype(np.float32)
    _, golden = ink_map(resample_cells(rgb, lattice), background)
    gold = golden[:, :, CORE, CORE].mean(axis=(2, 3)) >= GOLD_QUEEN
    gold &= ~(background >= WHITE).all(axis=2)
    return [(int(r), int(c)) for r, c in np.argwhere(gold)]


def by_the_rules(cells: list[tuple[int, int]]) -> bool:
    """No two cells in one row or column, and none touching another (diagonals included)."""
    rows, columns = [r for r, _ in cells], [c for _, c in cells]
    if len(set(rows)) < len(rows) or len(set(columns)) < len(columns):
        return False
    return all(max(abs(a[0] - b[0]), abs(a[1] - b[1])) > 1 for i, a in enumerate(cells) for b in cells[:i])
