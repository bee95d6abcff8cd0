"""Amazons on a 6 x 6 board with two queens a side.

A turn moves one of your queens like a chess queen (no jumping over queens or blocked squares,
no captures), then shoots an arrow from the queen's new square, also like a queen move; the
arrow's square is blocked for the rest of the game. A player who cannot move has lost.
Default start: White a4, f3; Black d6, c1 (a1 is bottom-left); White moves first.

Boards are Python ints with one bit per square, 7 bits per rank: the seventh (file "g") is
never empty, so a shift that would wrap from file f to file a of the next rank lands on it and
stops. Square index = 7 * rank + file (a1 = 0, f6 = 40).

Moves are written ``a4-c4/c2`` (from, to, arrow). Positions are written rank 6 first, like
chess FEN: ``W`` White queen, ``B`` Black queen, ``x`` arrow, digits for empty runs, then the
side to move (``w``/``b``), e.g. the start ``3B2/6/W5/5W/6/2B3 w``.

>>> game = AmazonsGame()
>>> len(game.legal_moves())
424
>>> game.push(game.parse_move("a4-c4/c2"))
>>> game.position()
'3B2/6/2W3/5W/2x3/2B3 b'
"""

from __future__ import annotations

import re
import time
from collections.abc import Hashable, Iterator
from typing import NamedTuple

from queens_autosolve.twoplayer.game import IllegalMoveError, Outcome, PositionError, outcome, quoted
from queens_autosolve.twoplayer.game_search import AlphaBeta, BudgetExceeded, GameSearchResult, Limit, solve
from queens_autosolve.twoplayer.players import RandomPlayer, Roster, SearchPlayer

SIZE = 6
STRIDE = SIZE + 1
BOARD = sum(1 << (STRIDE * r + f) for r in range(SIZE) for f in range(SIZE))
START = "3B2/6/W5/5W/6/2B3 w"
FILES = "abcdef"
# Shifts for the eight queen directions: east, north, north-east, north-west (and negatives).
_SHIFTS = (1, STRIDE, STRIDE + 1, STRIDE - 1)
_SQUARE = re.compile(r"([a-f])([1-6])")
# With this many empty squares or fewer, the AI tries to solve the game exactly.
ENDGAME_EMPTY = 12


class AmazonsMove(NamedTuple):
    """Queen from square, to square, arrow square (7-bit-rank indices; see module docstring)."""

    frm: int
    to: int
    arrow: int


def square_name(square: int) -> str:
    """``a1`` for square 0, ``f6`` for 40."""
    rank, file = divmod(square, STRIDE)
    return f"{FILES[file]}{rank + 1}"


def square_of(name: str) -> int:
    return STRIDE * (int(name[1]) - 1) + FILES.index(name[0])


def bits(mask: int) -> Iterator[int]:
    """The square indices set in `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def reach(sources: int, empty: int) -> int:
    """Every square one queen move away from any square of `sources`, over `empty` squares."""
    out = 0
    for shift in _SHIFTS:
        ray = sources
        while ray:
            ray = (ray << shift) & empty
            out |= ray
        ray = sources
        while ray:
            ray = (ray >> shift) & empty
            out |= ray
    return out


def _rays(square: int) -> tuple[tuple[int, ...], ...]:
    rank, file = divmod(square, STRIDE)
    out = []
    for dr, df in ((dr, df) for dr in (-1, 0, 1) for df in (-1, 0, 1) if dr or df):
        ray = []
        r, f = rank + dr, file + df
        while 0 <= r < SIZE and 0 <= f < SIZE:
            ray.append(1 << (STRIDE * r + f))
            r, f = r + dr, f + df
        if ray:
            out.append(tuple(ray))
    return tuple(out)


# RAYS[square]: for each direction, the bits of the squares along it, nearest first.
RAYS = tuple(_rays(square) for square in range(STRIDE * SIZE))


def reach_from(square: int, empty: int) -> int:
    """`reach` for one square, walking precomputed rays (faster for a single source)."""
    out = 0
    for ray in RAYS[square]:
        for bit in ray:
            if not empty & bit:
                break
            out |= bit
    return out


class AmazonsGame:
    """An Amazons game in progress; player 0 is White."""

    def __init__(self, setup: str = START) -> None:
        self.queens: list[int] = [0, 0]  # masks: White, Black
        self.arrows = 0
        self.turn = 0
        self.stack: list[AmazonsMove] = []
        self._load(setup)

    # --- the game interface ------------------------------------------------------------------

    def legal_moves(self) -> list[AmazonsMove]:
        own = self.queens[self.turn]
        empty = BOARD & ~(self.queens[0] | self.queens[1] | self.arrows)
        moves: list[AmazonsMove] = []
        append = moves.append
        new = AmazonsMove._make
        # Bit loops are written out (no `bits` generator): this is the search's hottest code.
        while own:
            frm_bit = own & -own
            own ^= frm_bit
            frm = frm_bit.bit_length() - 1
            vacated = empty | frm_bit
            targets = reach_from(frm, empty)
            while targets:
                to_bit = targets & -targets
                targets ^= to_bit
                to = to_bit.bit_length() - 1
                arrows = reach_from(to, vacated ^ to_bit)
                while arrows:
                    arrow_bit = arrows & -arrows
                    arrows ^= arrow_bit
                    append(new((frm, to, arrow_bit.bit_length() - 1)))
        return moves

    def has_moves(self) -> bool:
        """Cheaper than legal_moves: a queen with a free neighbour can always move and shoot
        back to the square it left."""
        empty = BOARD & ~(self.queens[0] | self.queens[1] | self.arrows)
        return bool(_neighbours(self.queens[self.turn]) & empty)

    def count_moves(self) -> int:
        """len(legal_moves()) without building the moves (for perft)."""
        own = self.queens[self.turn]
        empty = BOARD & ~(self.queens[0] | self.queens[1] | self.arrows)
        total = 0
        for frm in bits(own):
            vacated = empty | 1 << frm
            for to in bits(reach_from(frm, empty)):
                total += reach_from(to, vacated & ~(1 << to)).bit_count()
        return total

    def push(self, move: AmazonsMove) -> None:
        self.queens[self.turn] ^= (1 << move.frm) | (1 << move.to)
        self.arrows |= 1 << move.arrow
        self.turn ^= 1
        self.stack.append(move)

    def pop(self) -> AmazonsMove:
        move = self.stack.pop()
        self.turn ^= 1
        self.arrows &= ~(1 << move.arrow)
        self.queens[self.turn] ^= (1 << move.frm) | (1 << move.to)
        return move

    def peek(self) -> AmazonsMove:
        return self.stack[-1]

    def is_over(self) -> bool:
        return not self.has_moves()

    def winner(self) -> int | None:
        return 1 - self.turn if self.is_over() else None

    def outcome(self) -> Outcome | None:
        """How the game ended (None while it goes on), as python-chess's `Board.outcome()`."""
        return outcome(self)

    def key(self) -> Hashable:
        return (self.queens[0], self.queens[1], self.arrows, self.turn)

    def copy(self) -> AmazonsGame:
        game = AmazonsGame(self.position())
        game.stack = list(self.stack)
        return game

    def empty_count(self) -> int:
        return (BOARD & ~(self.queens[0] | self.queens[1] | self.arrows)).bit_count()

    def evaluate(self) -> float:
        """Territory for the player to move: every empty square is shared among the queens that
        can reach it, each in proportion to 1 / (queen-move distance); own share minus theirs."""
        empty = BOARD & ~(self.queens[0] | self.queens[1] | self.arrows)
        weights = ([0.0] * (STRIDE * SIZE), [0.0] * (STRIDE * SIZE))
        for side in (0, 1):
            weight = weights[side]
            for queen in bits(self.queens[side]):
                frontier = visited = 1 << queen
                distance = 1
                while True:
                    frontier = reach(frontier, empty) & ~visited
                    if not frontier:
                        break
                    visited |= frontier
                    share = 1.0 / distance
                    layer = frontier
                    while layer:
                        low = layer & -layer
                        layer ^= low
                        weight[low.bit_length() - 1] += share
                    distance += 1
        score = 0.0
        for own, theirs in zip(weights[self.turn], weights[1 - self.turn]):
            if own or theirs:
                score += (own - theirs) / (own + theirs)
        return score

    def ordered_moves(self, moves: list[AmazonsMove]) -> list[AmazonsMove]:
        """Arrows next to an opponent queen first: they take its room away."""
        near = _neighbours(self.queens[1 - self.turn])
        return sorted(moves, key=lambda m: not (near >> m.arrow) & 1)

    # --- notation and positions --------------------------------------------------------------

    def parse_move(self, text: str) -> AmazonsMove:
        """A move written ``a4-c4/c2`` (also ``a4c4c2`` or ``a4 c4 c2``) that is legal now."""
        names = _SQUARE.findall(text.lower())
        if len(names) != 3 or re.sub(r"[a-f][1-6]|[-/x() ]", "", text.lower().strip()):
            raise IllegalMoveError(f"{quoted(text)} is not a move; write from-to/arrow, e.g. a4-c4/c2")
        frm, to, arrow = (square_of(f + r) for f, r in names)
        if not self.queens[self.turn] >> frm & 1:
            side = "White" if self.turn == 0 else "Black"
            raise IllegalMoveError(f"there is no {side} queen on {square_name(frm)}")
        empty = BOARD & ~(self.queens[0] | self.queens[1] | self.arrows)
        if not reach(1 << frm, empty) >> to & 1:
            raise IllegalMoveError(
                f"the queen on {square_name(frm)} cannot reach {square_name(to)} "
                "(queen moves only, over empty squares)")
        vacated = (empty | 1 << frm) & ~(1 << to)
        if not reach(1 << to, vacated) >> arrow & 1:
            raise IllegalMoveError(
                f"from {square_name(to)} the arrow cannot reach {square_name(arrow)} "
                "(it flies like a queen over empty squares)")
        return AmazonsMove(frm, to, arrow)

    def move_name(self, move: AmazonsMove) -> str:
        return f"{square_name(move.frm)}-{square_name(move.to)}/{square_name(move.arrow)}"

    def position(self) -> str:
        ranks = []
        for rank in range(SIZE - 1, -1, -1):
            text, run = "", 0
            for file in range(SIZE):
                bit = 1 << (STRIDE * rank + file)
                ch = "W" if self.queens[0] & bit else "B" if self.queens[1] & bit else (
                    "x" if self.arrows & bit else "")
                if not ch:
                    run += 1
                    continue
                text += (str(run) if run else "") + ch
                run = 0
            ranks.append(text + (str(run) if run else ""))
        return "/".join(ranks) + (" w" if self.turn == 0 else " b")

    @classmethod
    def from_position(cls, text: str) -> AmazonsGame:
        return cls(text)

    def _load(self, text: str) -> None:
        parts = text.split()
        if len(parts) != 2 or parts[1] not in ("w", "b"):
            raise PositionError(f"{quoted(text)}: expected RANKS SIDE, e.g. {START!r}")
        ranks = parts[0].split("/")
        if len(ranks) != SIZE:
            raise PositionError(f"{quoted(text)}: {len(ranks)} ranks, expected {SIZE} separated by '/'")
        for index, rank_text in enumerate(ranks):
            rank = SIZE - 1 - index
            file = 0
            for ch in rank_text:
                if ch in "0123456789":  # not isdigit(): that takes '²', which int() refuses
                    file += int(ch)
                    continue
                if ch not in "WBx" or file >= SIZE:
                    shown = quoted(text)
                    raise PositionError(
                        f"{shown}: rank {rank + 1}: {ch!r} is not W, B, x or a digit"
                        if ch not in "WBx" else f"{shown}: rank {rank + 1} has more than {SIZE} squares")
                bit = 1 << (STRIDE * rank + file)
                if ch == "x":
                    self.arrows |= bit
                else:
                    self.queens[0 if ch == "W" else 1] |= bit
                file += 1
            if file != SIZE:
                raise PositionError(f"{quoted(text)}: rank {rank + 1} has {file} squares, expected {SIZE}")
        self.turn = 0 if parts[1] == "w" else 1
        for side, (letter, name) in enumerate((("W", "white"), ("B", "black"))):
            if not self.queens[side]:
                raise PositionError(f"{quoted(text)}: no {name} queen ({letter}); each side needs one")

    def __str__(self) -> str:
        lines = []
        for rank in range(SIZE - 1, -1, -1):
            row = []
            for file in range(SIZE):
                bit = 1 << (STRIDE * rank + file)
                row.append("W" if self.queens[0] & bit else "B" if self.queens[1] & bit else (
                    "x" if self.arrows & bit else "."))
            lines.append(f"{rank + 1} " + " ".join(row))
        lines.append("  " + " ".join(FILES))
        return "\n".join(lines)


def _neighbours(mask: int) -> int:
    out = 0
    for shift in _SHIFTS:
        out |= (mask << shift) | (mask >> shift)
    return out & BOARD


def perft(game: AmazonsGame, depth: int) -> int:
    """The number of move sequences of length `depth` from the position (leaves counted in bulk).

    >>> perft(AmazonsGame(), 1)
    424
    """
    if depth <= 0:
        return 1
    if depth == 1:
        return game.count_moves()
    total = 0
    for move in game.legal_moves():
        game.push(move)
        total += perft(game, depth - 1)
        game.pop()
    return total


class AmazonsAI:
    """Alpha-beta with iterative deepening within `limit`, the territory evaluation and an exact
    endgame solver once few squares are empty."""

    def __init__(self, limit: Limit | None = None, name: str = "search") -> None:
        self.name = name
        self.limit = limit or Limit(time=1.0)
        self.engine: AlphaBeta[AmazonsMove] = AlphaBeta()
        self.memo: dict[Hashable, bool] = {}
        self.last: GameSearchResult[AmazonsMove] | None = None

    def choose(self, game: AmazonsGame) -> AmazonsMove:
        start = time.perf_counter()
        limit = self.limit
        if game.empty_count() <= ENDGAME_EMPTY:
            move = self._solve(game)
            if move is not None:
                return move
            if limit.time is not None:  # the solver's time comes out of the same budget
                spent = time.perf_counter() - start
                limit = Limit(time=max(limit.time - spent, 0.0), depth=limit.depth, nodes=limit.nodes)
        self.last = self.engine.search(game, limit)
        return self.last.move

    def _solve(self, game: AmazonsGame) -> AmazonsMove | None:
        """A move that wins by exhaustive search, or None when none is found within budget
        (or the position is lost: then alpha-beta picks the most stubborn move)."""
        seconds = self.limit.time if self.limit.time is not None else 1.0
        deadline = time.perf_counter() + seconds / 2
        for move in game.ordered_moves(game.legal_moves()):
            if time.perf_counter() > deadline:
                return None
            game.push(move)
            try:
                lost = not solve(game, self.memo, deadline=deadline)
            except BudgetExceeded:
                return None
            finally:
                game.pop()
            if lost:
                return move
        return None


# The Amazons AIs by name: random, search (the full AI) or baseline (depth-2 territory).
AMAZONS_AIS: Roster[AmazonsGame, AmazonsMove] = Roster("Amazons", {
    "random": lambda seed, limit: RandomPlayer(seed),
    "search": lambda seed, limit: AmazonsAI(limit),
    "baseline": lambda seed, limit: SearchPlayer(Limit(depth=2), name="baseline"),
})
