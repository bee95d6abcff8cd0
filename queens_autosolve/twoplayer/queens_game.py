"""The Queens Game: two players take turns placing a queen on an N x N board of N coloured
regions; the player who cannot place one loses.

A queen may not share a row, column or region with another queen, nor a diagonal: the whole
diagonal in ``hard`` mode (classic N-Queens), only the diagonally adjacent cells in ``easy``
mode (the LinkedIn rule). A board with no regions (`QueensBoard.plain`) ignores regions.

Vocabulary: a *cell* is (row, col), 0-based from the top left, written ``r1c1`` (1-based) in
moves; the *free* mask holds every cell where a queen may still go; a cell's *conflicts* are
the cells it rules out (itself included). The game depends on the free mask alone: Node Kayles
on the conflict graph.

One idea per module, each importing only those before it: the board and what a queen rules out
(`twoplayer.queens_board`), the game in progress with its notation and positions (here), perfect
play (`twoplayer.queens_solver`, shared out over processes by `twoplayer.queens_split`) and the
AIs (`twoplayer.queens_players`).

>>> game = QueensGame(QueensBoard.plain(4, "hard"))
>>> game.push(game.parse_move("r1c2"))
>>> [game.move_name(m) for m in game.legal_moves()]
['r2c4', 'r3c1', 'r3c3', 'r4c1', 'r4c3', 'r4c4']
>>> QueensGame.from_position(game.position()).position() == game.position()
True
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass, field

from queens_autosolve.solver.puzzle import Cell, cells_of, geometry
from queens_autosolve.twoplayer.game import IllegalMoveError, Outcome, PositionError, outcome, quoted
from queens_autosolve.twoplayer.queens_board import MODES, Mode, QueensBoard

__all__ = ["DEFAULT_AI", "DEFAULT_MODE", "DEFAULT_SIZE", "MODES", "Mode", "QueensBoard", "QueensGame"]

# What a game is when nothing says otherwise: in the terminal (`play queens`) and on the page
# (`play queens --web`, or its address without settings) alike.
DEFAULT_SIZE = 8
DEFAULT_MODE: Mode = "hard"
DEFAULT_AI = "perfect"

# Up to 6 digits: more than any board, and int() never sees its 4300-digit limit.
_CELL = re.compile(r"^\s*r?\s*(\d{1,6})\s*(?:c|,|\s)\s*(\d{1,6})\s*$", re.IGNORECASE)


@dataclass
class QueensGame:
    """A Queens Game in progress. Moves are cells; player 0 places the first queen."""

    board: QueensBoard
    free: int = -1
    stack: list[tuple[Cell, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.free == -1:
            self.free = self.board.full

    # --- the game interface ------------------------------------------------------------------

    @property
    def turn(self) -> int:
        return len(self.stack) % 2

    @property
    def queens(self) -> list[Cell]:
        return [cell for cell, _ in self.stack]

    def legal_moves(self) -> list[Cell]:
        return cells_of(self.free, self.board.n)

    def push(self, move: Cell) -> None:
        i = move[0] * self.board.n + move[1]
        self.stack.append((move, self.free))
        self.free &= ~self.board.conflicts[i]

    def pop(self) -> Cell:
        move, self.free = self.stack.pop()
        return move

    def peek(self) -> Cell:
        return self.stack[-1][0]

    def is_over(self) -> bool:
        return self.free == 0

    def winner(self) -> int | None:
        """Who won: the player who placed the last queen. None while the game goes on."""
        return 1 - self.turn if self.free == 0 else None

    def outcome(self) -> Outcome | None:
        """How the game ended (None while it goes on), as python-chess's `Board.outcome()`."""
        return outcome(self)

    def key(self) -> Hashable:
        return self.free

    def copy(self) -> QueensGame:
        return QueensGame(self.board, self.free, list(self.stack))

    def evaluate(self) -> float:
        """Mobility, read through parity: an estimate of how many queens are still to come.

        Every remaining queen needs a row, a column and a region of its own, so the fewest free
        rows/columns/regions bounds the moves left; if that bound is odd the player to move
        expects to place the last queen. Free cells add a small tie-break.
        """
        n, free = self.board.n, self.free
        geo = geometry(n)
        rows = sum(1 for mask in geo.rows if mask & free)
        cols = sum(1 for mask in geo.cols if mask & free)
        left = min(rows, cols)
        sign = 1.0 if left % 2 == 1 else -1.0
        return sign * (100.0 + free.bit_count())

    # --- notation and positions --------------------------------------------------------------

    def parse_move(self, text: str) -> Cell:
        """A move written ``r3c5`` (or ``3,5``; 1-based row then column) that is legal now."""
        m = _CELL.match(text)
        if not m:
            raise IllegalMoveError(f"{quoted(text)} is not a cell; write it like r3c5 (row 3, column 5)")
        cell = (int(m.group(1)) - 1, int(m.group(2)) - 1)
        n = self.board.n
        if not (0 <= cell[0] < n and 0 <= cell[1] < n):
            raise IllegalMoveError(f"{text.strip()} is off the {n}x{n} board")
        why = self.illegal_reason(cell)
        if why is not None:
            raise IllegalMoveError(f"{self.move_name(cell)} {why}")
        return cell

    def move_name(self, move: Cell) -> str:
        return f"r{move[0] + 1}c{move[1] + 1}"

    def illegal_reason(self, cell: Cell) -> str | None:
        """Why a queen may not go on `cell` (on the board) now, naming the rule it breaks; None
        when it may.

        >>> game = QueensGame(QueensBoard.plain(4, "hard"))
        >>> game.push((0, 1))
        >>> game.illegal_reason((2, 3)), game.illegal_reason((2, 0))
        ('shares a diagonal with the queen on r1c2', None)
        """
        n = self.board.n
        i = cell[0] * n + cell[1]
        if self.free >> i & 1:
            return None
        for queen in self.queens:
            if queen == cell:
                return "already holds a queen"
        for queen in self.queens:
            j = queen[0] * n + queen[1]
            if self.board.conflicts[j] >> i & 1:
                return f"{self._rule_broken(queen, cell)} the queen on {self.move_name(queen)}"
        return "is not free"

    def _rule_broken(self, queen: Cell, cell: Cell) -> str:
        regions = self.board.regions
        if queen[0] == cell[0]:
            return "shares the same row as"
        if queen[1] == cell[1]:
            return "shares the same column as"
        if regions and regions[queen[0]][queen[1]] == regions[cell[0]][cell[1]]:
            return "shares the same region as"
        if self.board.mode == "easy":
            return "is a diagonal neighbour of"
        return "shares a diagonal with"

    def position(self) -> str:
        """``ROWS MODE MOVES``: region rows joined by '/' (or N for a plain board), the mode,
        and the queens in the order they were placed (``-`` for none)."""
        rows = str(self.board.n) if self.board.regions is None else "/".join(self.board.label_rows())
        moves = ",".join(self.move_name(m) for m in self.queens) or "-"
        return f"{rows} {self.board.mode} {moves}"

    @classmethod
    def from_position(cls, text: str) -> QueensGame:
        parts = text.split()
        if len(parts) != 3:
            raise PositionError(f"{quoted(text)}: expected 'ROWS MODE MOVES' (e.g. 'AAB/ACB/CCB hard r1c1')")
        rows, mode, moves = parts
        if mode not in MODES:
            raise PositionError(f"mode {quoted(mode)} is neither hard nor easy")
        if re.fullmatch(r"\d{1,6}", rows):
            n = int(rows)
            if not 1 <= n <= 16:
                raise PositionError(f"board size {n} is out of range 1..16")
            board = QueensBoard.plain(n, mode)
        else:
            board = QueensBoard.from_rows(rows.split("/"), mode)
        game = cls(board)
        for word in [] if moves == "-" else moves.split(","):
            game.push(game.parse_move(word))
        return game

    def __str__(self) -> str:
        """The board: 1 and 2 for the first and the second player's queens (as the game page
        marks them), the region letter (or '.') where a queen may still go, '-' where none may."""
        n = self.board.n
        labels = self.board.label_rows()
        queens = {cell: str(index % 2 + 1) for index, cell in enumerate(self.queens)}
        header = "    " + " ".join(f"{c + 1:>2}" for c in range(n))
        lines = [header]
        for r in range(n):
            cells = []
            for c in range(n):
                if (r, c) in queens:
                    ch = queens[(r, c)]
                elif self.free >> (r * n + c) & 1:
                    ch = labels[r][c]
                else:
                    ch = "-"
                cells.append(f"{ch:>2}")
            lines.append(f"{r + 1:>3} " + " ".join(cells))
        return "\n".join(lines)
