"""The Queens Game: two players take turns placing a queen on an N x N board of N coloured
regions; the player who cannot place one loses.

A queen may not share a row, column or region with another queen, nor a diagonal: the whole
diagonal in ``hard`` mode (classic N-Queens), only the diagonally adjacent cells in ``easy``
mode (the LinkedIn rule). A board with no regions (`QueensBoard.plain`) ignores regions.

Vocabulary: a *cell* is (row, col), 0-based from the top left, written ``r1c1`` (1-based) in
moves; the *free* mask holds every cell where a queen may still go; a cell's *conflicts* are
the cells it rules out (itself included). The game depends on the free mask alone, so the
perfect player treats it as Node Kayles on the conflict graph: the free cells fall apart into
independent components, and Sprague-Grundy values, memoised per component mask, combine them.

>>> game = QueensGame(QueensBoard.plain(4, "hard"))
>>> game.push(game.parse_move("r1c2"))
>>> [game.move_name(m) for m in game.legal_moves()]
['r2c4', 'r3c1', 'r3c3', 'r4c1', 'r4c3', 'r4c4']
>>> QueensGame.from_position(game.position()).position() == game.position()
True
"""

from __future__ import annotations

import random
import re
import time
from collections import defaultdict
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from solver.errors import QueensError
from solver.puzzle import Cell, Puzzle, cells_of, default_label, geometry
from solver.regions import random_regions
from twoplayer.game import IllegalMoveError, Outcome, PositionError, outcome, quoted
from twoplayer.players import Player, RandomPlayer
from twoplayer.search import AlphaBeta, Limit

Mode = Literal["hard", "easy"]
MODES: tuple[Mode, ...] = ("hard", "easy")
# Up to 6 digits: more than any board, and int() never sees its 4300-digit limit.
_CELL = re.compile(r"^\s*r?\s*(\d{1,6})\s*(?:c|,|\s)\s*(\d{1,6})\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class QueensBoard:
    """The fixed part of a game: size, mode and region map (None: regions are ignored)."""

    n: int
    mode: Mode = "hard"
    regions: tuple[tuple[int, ...], ...] | None = None

    @classmethod
    def plain(cls, n: int, mode: Mode = "hard") -> QueensBoard:
        """An n x n board without regions (the N-Queens game)."""
        return cls(n, mode, None)

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle, mode: Mode = "hard") -> QueensBoard:
        return cls(puzzle.n, mode, puzzle.regions)

    @classmethod
    def from_rows(cls, rows: Sequence[str], mode: Mode = "hard") -> QueensBoard:
        """A board from rows of region labels; PositionError unless it is a square of N regions.

        >>> QueensBoard.from_rows(["AAB", "ACB", "CCB"], "easy").regions
        ((0, 0, 1), (0, 2, 1), (2, 2, 1))
        """
        try:
            puzzle = Puzzle.from_rows(list(rows))
            puzzle.validate()
        except QueensError as exc:
            raise PositionError(f"bad region map: {exc}") from None
        return cls.from_puzzle(puzzle, mode)

    @classmethod
    def random(cls, n: int, seed: int | None, mode: Mode = "hard") -> QueensBoard:
        """A random map of n connected regions (the generator's way of growing them).

        Maps grow from a placement of n non-touching queens, which 2x2 and 3x3 boards lack.
        """
        try:
            grid = random_regions(n, random.Random(seed))
        except ValueError:
            raise PositionError(f"no random {n}x{n} region map: it needs N = 1 or N >= 4") from None
        return cls(n, mode, tuple(tuple(row) for row in grid))

    @cached_property
    def conflicts(self) -> tuple[int, ...]:
        """conflicts[i]: the cells a queen on cell i rules out, cell i included."""
        n = self.n
        geo = geometry(n, "diagonal" if self.mode == "hard" else "touch")
        region_masks: dict[int, int] = {}
        if self.regions is not None:
            for r, row in enumerate(self.regions):
                for c, region in enumerate(row):
                    region_masks[region] = region_masks.get(region, 0) | 1 << (r * n + c)
        out = []
        for i in range(n * n):
            r, c = divmod(i, n)
            mask = geo.rows[r] | geo.cols[c] | geo.neighbours[i]
            if self.regions is not None:
                mask |= region_masks[self.regions[r][c]]
            out.append(mask)
        return tuple(out)

    @property
    def full(self) -> int:
        return (1 << (self.n * self.n)) - 1

    def split_region(self) -> str | None:
        """The label of a region that is not one connected piece (cells joined side by side),
        found in reading order; None when every region is one piece (a plain board has none).

        >>> QueensBoard.from_rows(["AB", "BA"]).split_region()
        'B'
        """
        if self.regions is None:
            return None
        n, grid = self.n, self.regions
        seen: set[Cell] = set()
        for r0 in range(n):
            for c0 in range(n):
                region = grid[r0][c0]
                if (r0, c0) in seen:
                    continue
                if any(grid[r][c] == region for r, c in seen):
                    return default_label(region)  # a second piece of a region met before
                stack = [(r0, c0)]
                seen.add((r0, c0))
                while stack:
                    r, c = stack.pop()
                    for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                        if 0 <= rr < n and 0 <= cc < n and (rr, cc) not in seen and grid[rr][cc] == region:
                            seen.add((rr, cc))
                            stack.append((rr, cc))
        return None

    def label_rows(self) -> list[str]:
        """The region map as rows of labels (A, B, ...), '.' everywhere on a plain board."""
        if self.regions is None:
            return ["." * self.n] * self.n
        return ["".join(default_label(v) for v in row) for row in self.regions]


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
            board = QueensBoard.plain(n, mode)  # type: ignore[arg-type]
        else:
            board = QueensBoard.from_rows(rows.split("/"), mode)  # type: ignore[arg-type]
        game = cls(board)
        for word in [] if moves == "-" else moves.split(","):
            game.push(game.parse_move(word))
        return game

    def __str__(self) -> str:
        """The board: Q for queens, the region letter (or '.') where a queen may still go, '-'
        where none may."""
        n = self.board.n
        labels = self.board.label_rows()
        queens = set(self.queens)
        header = "    " + " ".join(f"{c + 1:>2}" for c in range(n))
        lines = [header]
        for r in range(n):
            cells = []
            for c in range(n):
                if (r, c) in queens:
                    ch = "Q"
                elif self.free >> (r * n + c) & 1:
                    ch = labels[r][c]
                else:
                    ch = "-"
                cells.append(f"{ch:>2}")
            lines.append(f"{r + 1:>3} " + " ".join(cells))
        return "\n".join(lines)


# --- perfect play: Node Kayles with Sprague-Grundy values ---------------------------------------


# Components up to this many cells are valued by the mex of all moves, bigger ones by search.
SMALL_COMPONENT = 10
# Positions of at least this many cells order their replies by what is left to prove
# (`KaylesSolver._open_moves`), smaller ones by size alone. On 10x10 easy that is the root and
# the positions after one queen: where a wrong first try costs most. Measured on the 20 maps of
# benchmarks/web_game.py (first move, against size order alone): 15% fewer positions searched
# (up to 27% on a map), 6% less CPU over all 20; from 25 or 45 cells up it searches fewer
# positions still, but the counting costs more CPU than they save.
PROOF_ORDER_CELLS = 60
_ALREADY_WON = 1 << 30  # sorts a child after every open count: it is won, no use as a reply
_CLOCK_EVERY = 1023  # look at the clock once per this many + 1 searched positions


class SolveTimeout(QueensError):
    """The exact search ran past its time budget (`KaylesSolver.budget`). What it had proved
    stays in the memo: asking again goes on from there."""


class KaylesSolver:
    """Exact values of free-cell masks under one board's conflicts (Node Kayles), memoised.

    The question asked everywhere is "does the player to move win `mask` + a Nim heap of size
    `heap`?" (`wins`). The heap stands for every component already valued: a component's
    Grundy value g is the smallest heap h for which `mask + *h` is lost, and a component of
    value g adds exactly like a heap of size g. So one boolean search, with early exit as soon
    as a winning move is found, does all the work; the memo has one table per heap size,
    keyed by mask (no key to build per lookup: the search does millions of them).

    >>> solver = KaylesSolver(QueensBoard.plain(3, "hard").conflicts)
    >>> solver.grundy((1 << 9) - 1)    # non-zero: the first player wins 3-queens
    2
    """

    def __init__(self, conflicts: Sequence[int]) -> None:
        self.conflicts = tuple(conflicts)
        self.values: dict[int, int] = {}  # component mask -> Grundy value
        # heap -> {mask -> mover wins}
        self.memo: defaultdict[int, dict[int, bool]] = defaultdict(dict)
        self.deadline: float | None = None  # perf_counter() past which `_search` gives up
        self.nodes = 0
        self.proof_order_cells = PROOF_ORDER_CELLS  # tests lower it to reach that path on small boards

    @contextmanager
    def budget(self, seconds: float | None) -> Iterator[None]:
        """Raise SolveTimeout from a search inside that runs longer than `seconds` (None: no
        limit). The memo stays sound: a result is stored only once it is proved."""
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        try:
            yield
        finally:
            self.deadline = None

    def _check_clock(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SolveTimeout("the exact search ran out of time")

    def size(self) -> int:
        """How many positions the memo holds (its memory grows with it)."""
        return len(self.values) + sum(len(table) for table in self.memo.values())

    def components(self, free: int) -> list[int]:
        """The free cells split into groups that no move in one group affects in another."""
        conflicts = self.conflicts
        out = []
        while free:
            frontier = free & -free
            rest = free ^ frontier  # not reached yet
            # Stops as soon as nothing is left to reach: the usual case, one component.
            while frontier and rest:
                low = frontier & -frontier
                frontier ^= low
                new = conflicts[low.bit_length() - 1] & rest
                if new:
                    rest ^= new
                    frontier |= new
            out.append(free ^ rest)
            free = rest
        return out

    def grundy(self, free: int) -> int:
        """The Grundy value of the position with `free` cells; 0 means the mover loses."""
        value = 0
        for comp in self.components(free):
            value ^= self._value(comp)
        return value

    def is_lost(self, free: int) -> bool:
        """True when the player to move loses `free` with perfect play."""
        return not self.wins(free, 0)

    def known_lost(self, free: int) -> bool:
        """True when the memo already shows `free` lost for the mover (no search)."""
        return self.memo.get(0, {}).get(free) is False or self.values.get(free) == 0

    def _value(self, comp: int) -> int:
        known = self.values.get(comp)
        if known is None:
            if comp.bit_count() <= SMALL_COMPONENT:
                known = self._mex(comp)
            else:
                known = 0
                while self.wins(comp, known):
                    known += 1
            self.values[comp] = known
        return known

    def _mex(self, comp: int) -> int:
        """The Grundy value straight from its definition (cheaper for small components)."""
        conflicts = self.conflicts
        seen = 0  # bit g set: some move reaches value g
        rest = comp
        while rest:
            low = rest & -rest
            rest ^= low
            seen |= 1 << self.grundy(comp & ~conflicts[low.bit_length() - 1])
        return (~seen & (seen + 1)).bit_length() - 1

    def wins(self, mask: int, heap: int) -> bool:
        """Does the player to move win the cells of `mask` plus a Nim heap of size `heap`?"""
        table = self.memo[heap]
        result = table.get(mask)
        if result is not None:
            return result
        known = self.values.get(mask)
        if known is not None:
            return known != heap
        return self._solve(mask, heap, table)

    def _solve(self, mask: int, heap: int, table: dict[int, bool]) -> bool:
        """`wins` for a mask known to be in neither memo: split it, or search it."""
        comps = self.components(mask)
        if len(comps) > 1:
            # Value every component but the largest exactly and fold it into the heap: the
            # small ones are cheap, and the search stays on one component.
            comps.sort(key=int.bit_count)
            folded = heap
            for comp in comps[:-1]:
                folded ^= self._value(comp)
            result = self.wins(comps[-1], folded)
        elif not comps:
            result = heap != 0
        else:
            result = self._search(mask, heap)
        table[mask] = result
        return result

    def _search(self, mask: int, heap: int) -> bool:
        self.nodes += 1
        if not self.nodes & _CLOCK_EVERY and self.deadline is not None:
            self._check_clock()
        conflicts, table, values = self.conflicts, self.memo[heap], self.values
        unknown = set()  # a set: cells with the same conflicts lead to the same position
        clique = True
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            child = mask & ~conflicts[low.bit_length() - 1]
            if not child:
                if heap == 0:
                    return True  # this move leaves nothing: the opponent cannot move
                continue
            clique = False
            if child in unknown:
                continue
            # Children already valued need no search: a lost one is a winning move, found
            # before the rest are even generated (the usual way a won position is decided);
            # a won one is of no use.
            known = table.get(child)
            if known is None:
                value = values.get(child)
                if value is None:
                    unknown.add(child)
                    continue
                known = value != heap
            if not known:
                return True
        if clique:
            return heap != 1  # every move ends the game: worth exactly one move, a heap of 1
        # Small children first: they are quick to refute, and a lost one ends the search.
        # In big positions the first try matters most: there the child with the fewest moves
        # still to refute goes first, by size among equals.
        order = sorted(unknown, key=int.bit_count)
        if heap == 0 and len(order) > 1 and mask.bit_count() >= self.proof_order_cells:
            order.sort(key=lambda child: self._open_moves(child, table))
        # Each was in neither memo a moment ago; one searched since may have filled in another.
        solve = self._solve
        for child in order:
            known = table.get(child)
            if not (known if known is not None else solve(child, heap, table)):
                return True
        return any(not self.wins(mask, smaller) for smaller in range(heap))

    def _open_moves(self, mask: int, table: dict[int, bool]) -> int:
        """What is left to prove `mask` lost for the mover: its moves whose result `table` does
        not hold yet (a one-level proof number). A move the table already shows winning makes
        `mask` won, of no use as a reply: _ALREADY_WON."""
        conflicts = self.conflicts
        count = 0
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            child = mask & ~conflicts[low.bit_length() - 1]
            known = table.get(child)
            if known is None:
                if not child:
                    return _ALREADY_WON
                count += 1
            elif not known:
                return _ALREADY_WON
        return count

    def winning_moves(self, free: int, n: int) -> list[Cell]:
        """The cells whose placement leaves the opponent a lost position."""
        return [cell for cell in cells_of(free, n)
                if self.is_lost(free & ~self.conflicts[cell[0] * n + cell[1]])]


@dataclass(frozen=True)
class Analysis:
    """Who wins a Queens Game position with perfect play, and the moves that win for the mover."""

    winner: int  # 0: the player to move (first player at the start), 1: the other player
    winning_moves: tuple[Cell, ...]

    def as_json(self) -> dict[str, object]:
        return {
            "winner": "first" if self.winner == 0 else "second",
            "winning_moves": [list(cell) for cell in self.winning_moves],
        }


def analyse(game: QueensGame, solver: KaylesSolver | None = None) -> Analysis:
    """Exact result of `game` for the player to move.

    >>> analyse(QueensGame(QueensBoard.plain(2))).as_json()
    {'winner': 'first', 'winning_moves': [[0, 0], [0, 1], [1, 0], [1, 1]]}
    """
    solver = solver or KaylesSolver(game.board.conflicts)
    moves = tuple(solver.winning_moves(game.free, game.board.n))
    return Analysis(0 if moves else 1, moves)


# --- players -----------------------------------------------------------------------------------


class GreedyPlayer:
    """The published 2-ply rule: win at once if possible, else leave the opponent fewest moves."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "greedy"
        self.rng = random.Random(seed)

    def choose(self, game: QueensGame) -> Cell:
        conflicts, n, free = game.board.conflicts, game.board.n, game.free
        scored = [((free & ~conflicts[r * n + c]).bit_count(), (r, c)) for r, c in game.legal_moves()]
        fewest = min(count for count, _ in scored)
        return self.rng.choice([cell for count, cell in scored if count == fewest])


class QueensSearchPlayer:
    """Alpha-beta with the mobility evaluation, within a limit (for boards too big to solve)."""

    def __init__(self, limit: Limit | None = None) -> None:
        self.name = "search"
        self.limit = limit or Limit(time=0.5)
        self.engine = AlphaBeta()
        self._board: QueensBoard | None = None

    def choose(self, game: QueensGame) -> Cell:
        if game.board != self._board:
            # Positions are keyed by their free mask alone, which means something else on
            # another board: start a fresh table.
            self.engine = AlphaBeta()
            self._board = game.board
        return self.engine.search(game, self.limit).move


# How long a lost player looks for its most stubborn move. It comes on top of proving the
# position lost (on a lost 10x10 easy first move it took 0.11-0.21 s of the 0.2 s allowed), and
# only picks among losing moves: 0.1 s halves that share.
STUBBORN_SECONDS = 0.1


class PerfectPlayer:
    """Exact play by Sprague-Grundy values. When every move loses, it leaves the opponent the
    fewest winning replies (checked within a small time budget), else the most free cells."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "perfect"
        self.rng = random.Random(seed)
        self._solvers: dict[QueensBoard, KaylesSolver] = {}

    def solver_for(self, board: QueensBoard) -> KaylesSolver:
        if board not in self._solvers:
            self._solvers.clear()  # one board at a time: the memo is per board
            self._solvers[board] = KaylesSolver(board.conflicts)
        return self._solvers[board]

    def forget(self) -> None:
        """Drop what the memo holds (it grows with every position proved)."""
        self._solvers.clear()

    def choose(self, game: QueensGame) -> Cell:
        solver = self.solver_for(game.board)
        conflicts, n, free = game.board.conflicts, game.board.n, game.free
        if not solver.is_lost(free):
            # The search that proved the win has left the winning reply in the memo: known
            # lost children first, then (rarely needed) a search of the rest.
            moves = game.legal_moves()
            self.rng.shuffle(moves)
            known = [m for m in moves if solver.known_lost(free & ~conflicts[m[0] * n + m[1]])]
            for move in known + moves:
                if solver.is_lost(free & ~conflicts[move[0] * n + move[1]]):
                    return move
        return self._stubborn(game, solver)

    def _stubborn(self, game: QueensGame, solver: KaylesSolver, budget: float = STUBBORN_SECONDS) -> Cell:
        """In a lost position: the move after which the fewest replies win for the opponent."""
        conflicts, n, free = game.board.conflicts, game.board.n, game.free
        moves = sorted(game.legal_moves(),
                       key=lambda cell: -(free & ~conflicts[cell[0] * n + cell[1]]).bit_count())
        deadline = time.perf_counter() + budget
        best, fewest = moves[0], None
        for move in moves:
            after = free & ~conflicts[move[0] * n + move[1]]
            replies = 0
            for reply in cells_of(after, n):
                if time.perf_counter() > deadline:
                    return best
                replies += solver.is_lost(after & ~conflicts[reply[0] * n + reply[1]])
            if fewest is None or replies < fewest:
                best, fewest = move, replies
        return best


def make_player(kind: str, seed: int | None = None, limit: Limit | None = None) -> Player:
    """A Queens Game AI by name: random, greedy, search or perfect.

    >>> make_player("perfect").name
    'perfect'
    """
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "greedy":
        return GreedyPlayer(seed)
    if kind == "search":
        return QueensSearchPlayer(limit)
    if kind == "perfect":
        return PerfectPlayer(seed)
    raise ValueError(f"unknown Queens Game player {kind!r}")


QUEENS_AIS = ("random", "greedy", "search", "perfect")


def brute_force_wins(game: QueensGame) -> bool:
    """Plain minimax without memo or decomposition (a test oracle): does the mover win?"""
    for move in game.legal_moves():
        game.push(move)
        lost = not brute_force_wins(game)
        game.pop()
        if lost:
            return True
    return False

