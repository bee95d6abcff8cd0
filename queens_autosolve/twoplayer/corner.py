"""Corner the Queen: a queen on an N x N board moves any distance left, down or diagonally
down-left; whoever moves it to (1, 1) wins.

Fields are (x, y): x is the column counted from the left, y the row counted from the bottom,
both 1-based, so (1, 1) is the bottom-left corner. Seen as two piles of x - 1 and y - 1 tokens
this is Wythoff's game: the *safe* fields (those the player who just moved wants to leave the
queen on) are (a_n + 1, b_n + 1) and (b_n + 1, a_n + 1) with a_n = floor(n * phi) and
b_n = a_n + n. a_n is computed with integers only, ``(n + isqrt(5 n^2)) // 2``, so it stays
exact on boards of any size.

>>> game = CornerGame(n=8, x=5, y=7)
>>> game.push(game.parse_move("3,5"))
>>> game.position()
'8 3,5 1 5,7'
>>> wythoff_move(8, 6)   # from (8, 6) a perfect player moves to the safe field (6, 4)
(6, 4)
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from math import isqrt

from queens_autosolve.twoplayer.game import IllegalMoveError, Outcome, PositionError, outcome, quoted
from queens_autosolve.twoplayer.players import Player
from queens_autosolve.twoplayer.terminal import Console, HumanPlayer, QuitGame, play_game

Field = tuple[int, int]
# Up to 6 digits: more than any board, and int() never sees its 4300-digit limit.
_FIELD = re.compile(r"^\s*\(?\s*(\d{1,6})\s*[, ]\s*(\d{1,6})\s*\)?\s*$")
_SIZE = re.compile(r"\d{1,6}")
MAX_SIZE = 10_000
DRAW_LIMIT = 40  # wider boards are described, not drawn


def lower_wythoff(k: int) -> int:
    """a_k = floor(k * phi), exactly.

    >>> [lower_wythoff(k) for k in range(8)]
    [0, 1, 3, 4, 6, 8, 9, 11]
    """
    return (k + isqrt(5 * k * k)) // 2


def is_safe(x: int, y: int) -> bool:
    """True when the player to move from field (x, y) loses against perfect play.

    >>> [f for f in [(1, 1), (2, 3), (3, 2), (4, 6), (2, 2)] if is_safe(*f)]
    [(1, 1), (2, 3), (3, 2), (4, 6)]
    """
    p, q = sorted((x - 1, y - 1))
    k = q - p
    return lower_wythoff(k) == p


def safe_fields(n: int) -> Iterator[Field]:
    """Every safe field on an n x n board, in order of k (a_k, b_k) then its mirror."""
    k = 0
    while True:
        a = lower_wythoff(k)
        b = a + k
        if a + 1 > n:
            return
        if b + 1 <= n:
            yield (a + 1, b + 1)
            if k:
                yield (b + 1, a + 1)
        k += 1


def _lower_index(value: int) -> int | None:
    """k with a_k == value, if value is a lower Wythoff number."""
    guess = (isqrt(5 * value * value) - value) // 2  # value / phi, rounded down
    for k in range(max(0, guess - 1), guess + 3):
        if lower_wythoff(k) == value:
            return k
    return None


def _upper_index(value: int) -> int | None:
    """k with b_k == value (b_k = a_k + k = floor(k * phi^2))."""
    guess = (3 * value - isqrt(5 * value * value)) // 2  # value / phi^2, rounded down
    for k in range(max(0, guess - 1), guess + 3):
        if lower_wythoff(k) + k == value:
            return k
    return None


def wythoff_move(x: int, y: int) -> Field | None:
    """The field a perfect player moves to from (x, y); None when (x, y) is safe (every move
    loses). O(1) big-integer arithmetic, so any board size works.

    >>> wythoff_move(4, 6) is None
    True
    """
    if is_safe(x, y):
        return None
    p, q = x - 1, y - 1
    # Diagonal: keep the difference, move to the safe pair with that difference.
    k = abs(p - q)
    a = lower_wythoff(k)
    if a < min(p, q):
        shift = min(p, q) - a
        return (x - shift, y - shift)
    # One coordinate: the other pile already belongs to a safe pair.
    for keep, other, build in ((p, q, lambda t: (p + 1, t + 1)), (q, p, lambda t: (t + 1, q + 1))):
        ka = _lower_index(keep)
        if ka is not None and lower_wythoff(ka) + ka < other:
            return build(lower_wythoff(ka) + ka)
        kb = _upper_index(keep)
        if kb is not None and lower_wythoff(kb) < other:
            return build(lower_wythoff(kb))
    raise AssertionError(f"Wythoff theory says ({x}, {y}) has a move to a safe field")


@dataclass
class CornerGame:
    """A game of Corner the Queen; moves are target fields. Player 0 (Anne) moves first."""

    n: int
    x: int
    y: int
    start: Field = (0, 0)
    stack: list[Field] = field(default_factory=list)
    first_turn: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.n <= MAX_SIZE:
            raise PositionError(f"board size {self.n} is out of range 1..{MAX_SIZE}")
        if not (1 <= self.x <= self.n and 1 <= self.y <= self.n):
            raise PositionError(f"field ({self.x},{self.y}) is not on the {self.n}x{self.n} board")
        if self.start == (0, 0):
            self.start = (self.x, self.y)

    @property
    def turn(self) -> int:
        return (self.first_turn + len(self.stack)) % 2

    def legal_moves(self) -> list[Field]:
        x, y = self.x, self.y
        left = [(x - d, y) for d in range(1, x)]
        down = [(x, y - d) for d in range(1, y)]
        diagonal = [(x - d, y - d) for d in range(1, min(x, y))]
        return left + down + diagonal

    def is_legal(self, target: Field) -> bool:
        dx, dy = self.x - target[0], self.y - target[1]
        in_board = target[0] >= 1 and target[1] >= 1
        return in_board and (dx, dy) != (0, 0) and (dx == 0 or dy == 0 or dx == dy) and dx >= 0 and dy >= 0

    def push(self, move: Field) -> None:
        self.stack.append((self.x, self.y))
        self.x, self.y = move

    def pop(self) -> Field:
        move = (self.x, self.y)
        self.x, self.y = self.stack.pop()
        return move

    def peek(self) -> Field:
        return (self.x, self.y)

    def is_over(self) -> bool:
        return (self.x, self.y) == (1, 1)

    def winner(self) -> int | None:
        """The player who moved the queen to (1, 1)."""
        return 1 - self.turn if self.is_over() else None

    def outcome(self) -> Outcome | None:
        """How the game ended (None while it goes on), as python-chess's `Board.outcome()`."""
        return outcome(self)

    def key(self) -> Hashable:
        return (self.x, self.y)

    def copy(self) -> CornerGame:
        return CornerGame(self.n, self.x, self.y, self.start, list(self.stack), self.first_turn)

    def evaluate(self) -> float:
        return 0.0  # only exact search makes sense here; see `wythoff_move`

    def parse_move(self, text: str) -> Field:
        """A target field written ``x,y`` (column from the left, row from the bottom)."""
        target = parse_field(text)
        if not self.is_legal(target):
            raise IllegalMoveError(
                f"({target[0]},{target[1]}) is not a queen move from ({self.x},{self.y}): "
                "go left, down or diagonally down-left, at least one field"
            )
        return target

    def move_name(self, move: Field) -> str:
        return f"{move[0]},{move[1]}"

    def position(self) -> str:
        """``N X,Y TURN START``: size, queen field, player to move (0 Anne, 1 Bob), start field."""
        return f"{self.n} {self.x},{self.y} {self.turn} {self.start[0]},{self.start[1]}"

    @classmethod
    def from_position(cls, text: str) -> CornerGame:
        parts = text.split()
        if len(parts) != 4 or not _SIZE.fullmatch(parts[0]) or parts[2] not in ("0", "1"):
            raise PositionError(f"{quoted(text)}: expected 'N X,Y TURN START', e.g. '8 3,5 1 5,7'")
        n = int(parts[0])
        x, y = parse_field(parts[1], PositionError)
        start = parse_field(parts[3], PositionError)
        return cls(n, x, y, start, first_turn=int(parts[2]))

    def board(self, hint: bool = False) -> str:
        """The board, top row first: Q for the queen, * for safe fields when `hint` is on.
        Boards wider than a terminal (N > 40) are described in words instead."""
        if self.n > DRAW_LIMIT:
            text = f"queen on ({self.x},{self.y}) of a {self.n}x{self.n} board"
            if hint:
                below = [f"({x},{y})" for x, y in safe_fields(self.n) if x <= self.x and y <= self.y]
                text += "; safe fields at or below it: " + " ".join(below)
            return text
        safe = set(safe_fields(self.n)) if hint else set()
        width = len(str(self.n))
        lines = []
        for y in range(self.n, 0, -1):
            row = []
            for x in range(1, self.n + 1):
                row.append("Q" if (x, y) == (self.x, self.y) else "*" if (x, y) in safe else ".")
            lines.append(f"{y:>{width}} " + " ".join(row))
        lines.append(" " * (width + 1) + " ".join(str(x % 10) for x in range(1, self.n + 1)))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.board()


def parse_field(text: str, error: type[Exception] = IllegalMoveError) -> Field:
    m = _FIELD.match(text)
    if not m:
        raise error(f"{quoted(text)} is not a field; write it as x,y (column, row from the bottom)")
    return int(m.group(1)), int(m.group(2))


class WythoffPlayer:
    """Perfect play: move to a safe field; from a safe field (a lost game) step one field."""

    name = "perfect"

    def choose(self, game: CornerGame) -> Field:
        target = wythoff_move(game.x, game.y)
        if target is not None:
            return target
        return (game.x - 1, game.y) if game.x > 1 else (game.x, game.y - 1)


# --- Anne (the person) against Bob (the computer) in the terminal ------------------------------

ANNE, BOB = 0, 1


def corner_session(
    console: Console, *, hint: bool = False, bob: Player[CornerGame, Field] | None = None
) -> int:
    """Many games in a row; before each, the board size and Anne's start field. Returns how
    many games Anne won."""
    bob = bob or WythoffPlayer()
    anne_wins = 0
    while True:
        try:
            n = _ask_size(console)
            won = _corner_game(console, n, hint, bob)
        except QuitGame:
            console.say("bye")
            return anne_wins
        anne_wins += won
        try:
            again = console.ask("Another game? [y/n] ").lower()
        except QuitGame:
            return anne_wins
        if not again.startswith("y"):
            console.say("bye")
            return anne_wins


def _ask_size(console: Console) -> int:
    while True:
        text = console.ask(f"Board size N (1..{MAX_SIZE}, q to quit): ")
        if text.lower() in ("q", "quit"):
            raise QuitGame
        if _SIZE.fullmatch(text) and 1 <= int(text) <= MAX_SIZE:
            return int(text)
        console.say(f"{quoted(text)} is not a board size: give a whole number from 1 to {MAX_SIZE}")


def _corner_game(console: Console, n: int, hint: bool, bob: Player[CornerGame, Field]) -> bool:
    """One game; True when Anne wins."""
    while True:
        text = console.ask("Anne, place the queen: field x,y (column, row from the bottom-left): ")
        if text.lower() in ("q", "quit"):
            raise QuitGame
        try:
            x, y = parse_field(text)
            game = CornerGame(n, x, y, first_turn=BOB)
            break
        except (IllegalMoveError, PositionError) as exc:
            console.say(f"{exc}; try again")
    if (x, y) == (1, 1):
        console.say("Anne puts the queen straight on (1,1) and wins at once... but that is cheating!")
        return True
    anne = HumanPlayer("Anne", console)

    def show(state: CornerGame) -> str:
        return state.board(hint=hint)

    console.say("Bob moves first.")
    result = play_game(game, [anne, bob], ["Anne", "Bob"], console, show=show)
    if result is None:
        raise QuitGame
    return result.winner == ANNE
