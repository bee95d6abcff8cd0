"""The interface the four games share, in the spirit of python-chess and OpenSpiel.

A game state is a mutable board with a move stack: `legal_moves()`, `push(move)` / `pop()` /
`peek()`, `is_over()` and `winner()`, a move notation (`parse_move` / `move_name`) and a
position string (`position()` / `from_position`) that round-trip. Players are numbered 0 (who
moves first from the starting position) and 1; `turn` is the player to move. Every game here
uses the normal-play rule: a player with no legal move has lost.

Search code (`twoplayer.game_search`) relies only on this protocol plus `key()` (a hashable summary
of everything that decides the rest of the game) and, for heuristic search, `evaluate()`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from queens_autosolve.solver.errors import QueensError

M = TypeVar("M")  # a game's move: a cell, an Amazons move, ...


def quoted(text: str, width: int = 40) -> str:
    """`text` in quotes for a message, cut short: what people type may be thousands of characters.

    >>> quoted("r1c1"), quoted("1" * 50, 8)
    ("'r1c1'", "'11111111...'")
    """
    text = text.strip()
    return repr(text) if len(text) <= width else repr(text[:width] + "...")


class IllegalMoveError(QueensError):
    """A move that does not parse, or is not legal in the current position."""


class PositionError(QueensError):
    """A position string, board file or setup that cannot describe a game."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: `winner` is player 0 or 1 (these games have no draws).

    >>> Outcome(winner=1).result()
    '0-1'
    """

    winner: int

    def result(self) -> str:
        return "1-0" if self.winner == 0 else "0-1"


class GameState(Protocol[M]):
    """What every game offers to search code, the terminal loop and the arena."""

    @property
    def turn(self) -> int:
        """The player to move: 0 or 1."""
        ...

    def legal_moves(self) -> Sequence[M]: ...

    def push(self, move: M) -> None:
        """Play `move`, which must be legal (use `parse_move` for moves from people)."""
        ...

    def pop(self) -> M: ...

    def peek(self) -> M: ...

    @property
    def stack(self) -> Sequence[object]:
        """What was played so far, first to last (a move, with what undoing it needs)."""
        ...

    def is_over(self) -> bool: ...

    def winner(self) -> int | None: ...

    def outcome(self) -> Outcome | None: ...

    def parse_move(self, text: str) -> M:
        """The legal move written as `text`; IllegalMoveError (with the reason) otherwise."""
        ...

    def move_name(self, move: M) -> str: ...

    def position(self) -> str: ...

    def key(self) -> Hashable: ...

    def copy(self) -> GameState[M]: ...


class Searchable(GameState[M], Protocol[M]):
    """A game that heuristic search can play: a static score for the player to move."""

    def evaluate(self) -> float: ...


# A game state of any move type, for code generic over the state and its move together
# (`Player[S, M]`): a TypeVar's bound cannot name another TypeVar.
S = TypeVar("S", bound="GameState[Any]")


def outcome(state: GameState[M]) -> Outcome | None:
    """The outcome of a finished game, None while it goes on.

    Normal play: the player to move with no legal move has lost.
    """
    if not state.is_over():
        return None
    winner = state.winner()
    return Outcome(winner if winner is not None else 1 - state.turn)
