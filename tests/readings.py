"""Board readings made by hand for the unit tests of what comes after vision (the pipeline,
watch): cells 40 px apart from the origin, one colour for every region."""

from __future__ import annotations

from queens_autosolve.capture import Rect
from queens_autosolve.solver.position import CellState
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.vision import BoardReading


def reading_of(rows: list[str], puzzle: Puzzle, confidence: float = 1.0) -> BoardReading:
    """`puzzle`'s board showing `rows` (cell-state letters), read with `confidence` (below 0.9:
    unsure, with a reason)."""
    n = len(rows)
    return BoardReading(
        n=n,
        regions=puzzle.regions,
        states=tuple(tuple(CellState(ch) for ch in row) for row in rows),
        centres=tuple(tuple((c * 40 + 20.0, r * 40 + 20.0) for c in range(n)) for r in range(n)),
        box=Rect(0, 0, n * 40, n * 40),
        region_colours=((0, 0, 0),) * n,
        confidence=confidence,
        reasons=() if confidence >= 0.9 else ("two regions look alike",),
        solved_look=False,
    )
