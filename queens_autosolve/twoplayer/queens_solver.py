"""Perfect play of the Queens Game: who wins a position, and the moves that win.

The game depends on the free mask alone (the cells where a queen may still go), so the solver
answers "does the player to move win `free`?" by plain negamax over free masks with one memo
(`KaylesSolver.wins`), cut short by counting: every queen to come needs a row, a column and a
region of its own, so the fewest free rows, columns or regions bound the queens left. With at
most two left the mover wins only by a move that leaves nothing; with three, only by a move that
leaves no such move to the opponent; both are decided without searching further. A position won
by a queen on c after the opponent's queen on a shows the sibling (the opponent's queen on c,
then a) won too, at the cost of one store (`KaylesSolver._won_sibling`).

Sprague-Grundy values (`KaylesSolver.grundy`) remain for analysis: the free cells fall apart
into components that no move links, and the values of the parts combine by xor. The win/loss
search does not use them. The search over free masks costs less CPU than one by Grundy values
(docs/notes.md has the measurements and what was tried and left out).

>>> from queens_autosolve.twoplayer.queens_board import QueensBoard
>>> solver = KaylesSolver(QueensBoard.plain(3, "hard"))
>>> solver.is_lost(solver.board.full), solver.grundy(solver.board.full)  # 3-queens: first player wins
(False, 2)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.puzzle import Cell, cells_of
from queens_autosolve.twoplayer.queens_board import QueensBoard
from queens_autosolve.twoplayer.queens_game import QueensGame

# Positions of at least this many cells order their replies by what is left to prove
# (`KaylesSolver._open_counts`), smaller ones by size alone (small children first: they are
# quick to refute, and a lost one ends the search). On 10x10 that is the root and the positions
# after one queen, where a wrong first try costs most.
PROOF_ORDER_CELLS = 60
# Each depth of the search keeps the last KILLERS distinct cells whose queen won there (killer
# moves): a reply that refuted one opponent move often refutes its sibling too. They are tried
# right after the first child of the usual order (KILLER_SLOT), before the rest; easy boards only:
# on hard ones (a queen rules out whole diagonals) they cost positions (docs/notes.md).
# Three since won siblings are marked (`KaylesSolver._won_sibling`): 1.58M -> 1.54M positions on
# the 20 maps, 187k -> 160k on the worst (four: 1.55M / 162k).
KILLERS = 3
KILLER_SLOT = 1
_ALREADY_WON = 1 << 30  # sorts a child after every open count: it is won, no use as a reply
_CLOCK_EVERY = 1023  # look at the clock once per this many + 1 searched positions


class SolveTimeout(QueensError):
    """The exact search ran past its time budget (`KaylesSolver.budget`). What it had proved
    stays in the memo: asking again goes on from there."""


class SearchHalted(Exception):
    """The search was told to stop (`KaylesSolver.halting`): its time alone is up, or another
    process has the answer. Internal to `twoplayer.queens_split`; like SolveTimeout it leaves
    the memo sound."""


class KaylesSolver:
    """Exact results of free-cell masks on one board (Node Kayles on its conflict graph), memoised.

    >>> solver = KaylesSolver(QueensBoard.plain(4, "hard"))
    >>> solver.is_lost(solver.board.full & ~solver.board.conflicts[1])  # after r1c2
    False
    """

    def __init__(self, board: QueensBoard) -> None:
        self.board = board
        self.conflicts = board.conflicts
        self._keep = tuple(~mask for mask in board.conflicts)  # free & keep[i]: after a queen on i
        self._units = board.units
        # The same by bit_length (index i + 1 for cell i), and top[i + 1] the bit of cell i: the
        # loops over a mask's cells take its highest one, `rest.bit_length()`, which makes a small
        # int, where `rest & -rest` makes two big ones (see the module docstring).
        self._keep1 = (0, *self._keep)
        self._units1 = (0, *board.units)
        self._top = (0, *(1 << cell for cell in range(board.n * board.n)))
        kinds = board.unit_kinds
        # Always three kinds: on a plain board (no regions) the rows stand in for them.
        self._unit_kinds = kinds if len(kinds) == 3 else (*kinds, kinds[0])
        self.memo: dict[int, bool] = {}  # free mask -> the player to move wins
        self.values: dict[int, int] = {}  # component mask -> Grundy value (`grundy` only)
        self.deadline: float | None = None  # perf_counter() past which `wins` gives up
        self.halt: Callable[[], bool] | None = None  # asked as often as the clock: True stops
        self._watched = False  # a deadline or a halt is set: look every _CLOCK_EVERY + 1 positions
        self.nodes = 0
        self._killers: list[list[int]] = [[] for _ in range(board.n + 1)]  # per depth, newest first
        self._killer_count = KILLERS if board.mode == "easy" else 0
        # Won siblings (`_won_sibling`) on easy boards only: on hard ones finding the cell of a
        # queen means walking its whole diagonals, and the 17% fewer positions cost 5% more
        # instructions (20 maps of 10x10, 145k -> 121k positions).
        self._siblings = board.mode == "easy"
        self._path = [0] * (board.n + 1)  # per depth: the position `_search` works on there
        self.proof_order_cells = PROOF_ORDER_CELLS  # tests lower it to reach that path on small boards

    @contextmanager
    def budget(self, seconds: float | None) -> Iterator[None]:
        """Raise SolveTimeout from a search inside that runs longer than `seconds` (None: no
        limit of its own). Nested, the earlier deadline holds: a budget inside a budget cannot
        lengthen it, and leaving it restores the outer one. The memo stays sound: a result is
        stored only once it is proved."""
        outer = self.deadline
        if seconds is not None:
            mine = time.perf_counter() + seconds
            self.deadline = mine if outer is None else min(outer, mine)
        self._watched = self.deadline is not None or self.halt is not None
        try:
            yield
        finally:
            self.deadline = outer
            self._watched = outer is not None or self.halt is not None

    @contextmanager
    def halting(self, halt: Callable[[], bool]) -> Iterator[None]:
        """Raise SearchHalted from a search inside once `halt()` says so (asked every
        _CLOCK_EVERY + 1 positions, a few ms). Leaving it restores the halt it replaced, as
        `budget` restores the outer deadline."""
        outer, self.halt, self._watched = self.halt, halt, True
        try:
            yield
        finally:
            self.halt = outer
            self._watched = self.deadline is not None or outer is not None

    def _check_clock(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SolveTimeout("the exact search ran out of time")
        if self.halt is not None and self.halt():
            raise SearchHalted

    def size(self) -> int:
        """How many positions the memo holds (its memory grows with it)."""
        return len(self.memo) + len(self.values)

    def is_lost(self, free: int) -> bool:
        """True when the player to move loses `free` with perfect play."""
        return not self.wins(free)

    def known_lost(self, free: int) -> bool:
        """True when the memo already shows `free` lost for the mover (no search)."""
        return self.memo.get(free) is False

    def winning_moves(self, free: int) -> list[Cell]:
        """The cells whose placement leaves the opponent a lost position."""
        n, keep = self.board.n, self._keep
        return [cell for cell in cells_of(free, n) if self.is_lost(free & keep[cell[0] * n + cell[1]])]

    def wins(self, free: int) -> bool:
        """Does the player to move win `free`? Searches what the memo does not hold yet."""
        return self._wins(free, 0)

    def _wins(self, free: int, depth: int) -> bool:
        """`wins` at `depth` queens below the position first asked about (the index of the
        killers and of `_path`)."""
        memo = self.memo
        known = memo.get(free)
        if known is not None:
            return known
        self.nodes += 1
        if not self.nodes & _CLOCK_EVERY and self._watched:
            self._check_clock()
        keep, units_of, top, lookup = self._keep1, self._units1, self._top, memo.get
        unknown = []
        units = 0
        rest = free
        while rest:  # from the highest cell down (b: its bit_length)
            b = rest.bit_length()
            rest ^= top[b]
            child = free & keep[b]
            # A child already decided needs no search: an empty or lost one is a winning move,
            # found before the rest are even generated (the usual way a won position is decided).
            # The sibling it shows won too (`_won_sibling`, inlined: hot).
            if not child:
                memo[free] = True
                if depth and self._siblings:
                    memo[self._path[depth - 1] & keep[b]] = True
                return True
            known = lookup(child)
            if known is None:
                unknown.append(child)
            elif not known:
                memo[free] = True
                if depth and self._siblings:
                    memo[self._path[depth - 1] & keep[b]] = True
                return True
            units |= units_of[b]
        unknown.reverse()  # lowest cell first, the order the sorts below break ties by
        rows, cols, regions = self._unit_kinds
        left = min((units & rows).bit_count(), (units & cols).bit_count(), (units & regions).bit_count())
        if left <= 2:
            result = False  # every move leaves one queen to place, and the opponent places it
        elif left == 3:
            lost = self._leaves_no_last_move(unknown)
            result = bool(lost)
            if lost and depth and self._siblings:
                self._won_sibling(free, self._cell_to(free, lost), depth)
        else:
            self._path[depth] = free
            result = self._search(free, unknown, depth)
        memo[free] = result
        return result

    def _won_sibling(self, free: int, cell: int, depth: int) -> None:
        """`free` is won by a queen on `cell` (it leaves nothing, or a lost position): so is the
        sibling where that queen came first. `free` is parent & keep[a] for the queen a placed in
        the parent (`_path[depth - 1]`); the sibling parent & keep[cell] holds a (conflicts are
        mutual, and cell was free after a), and a queen on a there leaves the same cells as the
        queen on cell here. Unlike merging positions, this costs one store and no search."""
        self.memo[self._path[depth - 1] & self._keep[cell]] = True

    def order_children(self, free: int, unknown: list[int], depth: int = 0) -> None:
        """Sort the undecided children of `free` into the order the search tries them."""
        unknown.sort(key=int.bit_count)
        if len(unknown) > 1 and free.bit_count() >= self.proof_order_cells:
            unknown.sort(key=self._open_counts(free).__getitem__)
        killers = self._killers[depth]
        if killers and len(unknown) > KILLER_SLOT + 1:
            self._killers_early(free, unknown, killers)

    def child_wins(self, free: int, child: int) -> bool:
        """`wins(child)` for a child of `free`, searched as `wins(free)` searches its children
        (one level down: the killers of that level, and won siblings marked among them)."""
        self._path[0] = free
        return self._wins(child, 1)

    def _search(self, free: int, unknown: list[int], depth: int) -> bool:
        """Try the children nothing decided yet; the mover wins by any that is lost."""
        self.order_children(free, unknown, depth)
        killers = self._killers[depth]
        wins, below = self._wins, depth + 1
        for child in unknown:
            if not wins(child, below):
                if not self._siblings:  # hard boards: neither siblings nor killers
                    return True
                if killers and free >> killers[0] & 1 and free & self._keep[killers[0]] == child:
                    cell = killers[0]  # already the first killer (or as good: the same child)
                else:
                    cell = self._cell_to(free, child)
                    if self._killer_count:
                        self._remember_killer(killers, cell)
                if depth:
                    self._won_sibling(free, cell, depth)
                return True
        return False

    def _killers_early(self, free: int, unknown: list[int], killers: list[int]) -> None:
        """Move the children the killer cells lead to up to KILLER_SLOT of `unknown`."""
        keep = self._keep
        slot = KILLER_SLOT
        for cell in killers:
            if free >> cell & 1:
                child = free & keep[cell]
                if child in unknown:
                    at = unknown.index(child)
                    if at > slot:
                        unknown.insert(slot, unknown.pop(at))
                        slot += 1

    def _cell_to(self, free: int, child: int) -> int:
        """A free cell whose queen leads from `free` to `child`."""
        keep, top = self._keep1, self._top
        rest = free ^ child  # the queen's cell is among the cells it ruled out
        while rest:
            b = rest.bit_length()
            rest ^= top[b]
            if free & keep[b] == child:
                return b - 1
        raise AssertionError("no queen leads there")

    def _remember_killer(self, killers: list[int], cell: int) -> None:
        """Put `cell` (whose queen won) first among `killers`."""
        if cell in killers:
            killers.remove(cell)
        killers.insert(0, cell)
        del killers[self._killer_count:]

    def _leaves_no_last_move(self, children: list[int]) -> int:
        """With at most three queens to come: a child (two at most to come) that leaves the
        opponent no move ending the game, so that the mover places the last queen (0: none)."""
        memo = self.memo
        for child in children:
            if self._has_last_move(child):
                memo[child] = True  # the opponent ends the game at once
            else:
                memo[child] = False
                return child
        return 0

    def _has_last_move(self, free: int) -> bool:
        """Is there a cell whose queen rules out every free cell?"""
        keep, top = self._keep1, self._top
        rest = free
        while rest:
            b = rest.bit_length()
            rest ^= top[b]
            if not free & keep[b]:
                return True
        return False

    def _open_counts(self, free: int) -> dict[int, int]:
        """What is left to prove each child of `free` lost for its mover, by child: its moves
        whose result the memo does not hold yet (a one-level proof number); _ALREADY_WON for a
        child with a move the memo shows winning (or one that ends the game), of no use as a
        reply. A queen on a then b leaves the same cells as b then a, so each pair of queens is
        looked up once and counts for both children: half the lookups of counting child by
        child (tests/twoplayer_oracles.py `open_moves` does that)."""
        lookup, keep, top = self.memo.get, self._keep1, self._top
        count = [0] * len(keep)  # by bit_length, as keep
        won = 0  # the bits of the cells whose child is won (a move from it ends the game or wins)
        children = []  # (bit_length, bit, child) of each cell
        rest = free
        while rest:
            b = rest.bit_length()
            bit = top[b]
            rest ^= bit
            after = free & keep[b]
            children.append((b, bit, after))
            below = after & (bit - 1)  # the second queen on a lower cell: each pair once
            open_here = 0
            while below:
                c = below.bit_length()
                below ^= top[c]
                leaf = after & keep[c]
                known = lookup(leaf)
                if known is None:
                    if leaf:
                        open_here += 1
                        count[c] += 1
                    else:
                        won |= bit | top[c]
                elif not known:
                    won |= bit | top[c]
            count[b] += open_here
        return {after: _ALREADY_WON if won & bit else count[b] for b, bit, after in children}

    # --- Sprague-Grundy values, for analysis ----------------------------------------------------

    def components(self, free: int) -> list[int]:
        """The free cells split into groups that no move in one group affects in another."""
        conflicts = self.conflicts
        out = []
        while free:
            frontier = free & -free
            rest = free ^ frontier  # not reached yet
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

    def _value(self, comp: int) -> int:
        """The mex of the values a move in one component reaches."""
        known = self.values.get(comp)
        if known is None:
            seen = 0  # bit g set: some move reaches value g
            rest = comp
            while rest:
                low = rest & -rest
                rest ^= low
                seen |= 1 << self.grundy(comp & self._keep[low.bit_length() - 1])
            known = self.values[comp] = (~seen & (seen + 1)).bit_length() - 1
        return known


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

    >>> from queens_autosolve.twoplayer.queens_game import QueensGame
    >>> analyse(QueensGame(QueensBoard.plain(2))).as_json()
    {'winner': 'first', 'winning_moves': [[0, 0], [0, 1], [1, 0], [1, 1]]}
    """
    solver = solver or KaylesSolver(game.board)
    moves = tuple(solver.winning_moves(game.free))
    return Analysis(0 if moves else 1, moves)
