"""The board as a player has it: each cell empty, X-marked or holding a queen (the player's or a
locked one). The one definition of the cell-state letters `. x Q L` and their one parser: vision
reads boards into these states, the practice page writes them, the coach and the after-click
check take a `Position`.

Pure logic: no screen imports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.puzzle import Cell, cell_name


class CellState(Enum):
    """What a cell shows; the value is its letter in a states row."""

    EMPTY = "."
    X = "x"
    QUEEN = "Q"
    LOCKED = "L"

    @property
    def is_queen(self) -> bool:
        """A queen, the player's or a locked (pre-placed) one."""
        return self in (CellState.QUEEN, CellState.LOCKED)


# Letters a person may type for a state besides its own: X for x, q for Q.
_ALIASES = {"X": CellState.X, "q": CellState.QUEEN}
# The letters by name, as the practice page's script takes them (it keeps no copy of its own).
LETTERS: dict[str, str] = {
    "empty": CellState.EMPTY.value, "mark": CellState.X.value,
    "queen": CellState.QUEEN.value, "locked": CellState.LOCKED.value,
}


class StatesError(QueensError):
    """Rows of cell letters that are not an n x n board of `. x Q L`."""


def parse_state(letter: str, cell: Cell = (0, 0)) -> CellState:
    """The state a letter stands for (`X` and `q` accepted); StatesError for any other letter."""
    state = _ALIASES.get(letter)
    if state is not None:
        return state
    try:
        return CellState(letter)
    except ValueError:
        raise StatesError(f"cell state {letter!r} at {cell_name(cell)}: use . x Q L") from None


def parse_states(rows: Sequence[str], n: int | None = None) -> tuple[tuple[CellState, ...], ...]:
    """Rows of cell letters as states; StatesError unless they are n rows of n letters of `. x Q L`.

    >>> parse_states(["Qx", ".L"])[0]
    (<CellState.QUEEN: 'Q'>, <CellState.X: 'x'>)
    """
    n = len(rows) if n is None else n
    if len(rows) != n or any(len(row) != n for row in rows):
        raise StatesError(f"cell states must be {n} rows of {n} letters")
    return tuple(tuple(parse_state(ch, (r, c)) for c, ch in enumerate(row)) for r, row in enumerate(rows))


def state_rows(states: Iterable[Iterable[CellState | None]]) -> list[str]:
    """States as rows of letters (a covered cell, None, as `?`)."""
    return ["".join("?" if s is None else s.value for s in row) for row in states]


@dataclass(frozen=True)
class Position:
    """The board as the player has it, cell by cell: `states[r][c]` is what cell (r, c) shows,
    None where it is covered (by a dialog, say) and so not seen."""

    states: tuple[tuple[CellState | None, ...], ...]

    @classmethod
    def empty(cls, n: int) -> Position:
        return cls(((CellState.EMPTY,) * n,) * n)

    @classmethod
    def of(cls, n: int, queens: Iterable[Cell] = (), marks: Iterable[Cell] = ()) -> Position:
        """An n x n board with these queens and X marks, the rest empty."""
        grid = [[CellState.EMPTY] * n for _ in range(n)]
        for r, c in marks:
            grid[r][c] = CellState.X
        for r, c in queens:
            grid[r][c] = CellState.QUEEN
        return cls(tuple(tuple(row) for row in grid))

    @classmethod
    def from_rows(cls, rows: Sequence[str], n: int | None = None) -> Position:
        """From rows of cell letters (see `parse_states`).

        >>> sorted(Position.from_rows(["Qx", ".."]).marks)
        [(0, 1)]
        """
        return cls(parse_states(rows, n))

    @property
    def n(self) -> int:
        return len(self.states)

    @cached_property
    def queens(self) -> frozenset[Cell]:
        """The cells holding a queen, locked ones included."""
        return self._cells_where(lambda s: s.is_queen)

    @cached_property
    def marks(self) -> frozenset[Cell]:
        return self._cells_where(lambda s: s is CellState.X)

    def rows(self) -> list[str]:
        return state_rows(self.states)

    def state_at(self, cell: Cell) -> CellState | None:
        return self.states[cell[0]][cell[1]]

    def differs_from(self, other: Position) -> bool:
        """Whether a cell seen in both shows differently."""
        return any(a is not None and b is not None and a != b
                   for row_a, row_b in zip(self.states, other.states) for a, b in zip(row_a, row_b))

    def _cells_where(self, keep: Callable[[CellState], bool]) -> frozenset[Cell]:
        return frozenset((r, c) for r, row in enumerate(self.states) for c, s in enumerate(row)
                         if s is not None and keep(s))
