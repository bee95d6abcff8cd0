"""Players: anything that picks a move for a game state. The terminal loop and the arena only
see this protocol, so people and programs are interchangeable.

>>> from queens_autosolve.twoplayer.corner import CornerGame
>>> move = RandomPlayer(seed=1).choose(CornerGame(n=5, x=5, y=5))
>>> move in CornerGame(n=5, x=5, y=5).legal_moves()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Generic, Protocol, TypeVar

from queens_autosolve.twoplayer.game import GameState, M, Searchable
from queens_autosolve.twoplayer.game_search import AlphaBeta, GameSearchResult, Limit

S_contra = TypeVar("S_contra", contravariant=True)
M_co = TypeVar("M_co", covariant=True)


class Player(Protocol[S_contra, M_co]):
    """Picks a legal move (of type M_co) in a position (of type S_contra) that is not over."""

    @property
    def name(self) -> str: ...

    def choose(self, state: S_contra) -> M_co: ...


SS = TypeVar("SS")  # a game's state, as a Roster's players take it

# Builds a player from a seed (for its random choices) and a search limit (for those that search).
PlayerMaker = Callable[[int | None, Limit | None], Player[SS, M]]


class Roster(Generic[SS, M]):
    """The AIs a game offers, by name: `make(kind, seed, limit)` builds one; `names` are a command's
    choices.

    >>> roster = Roster("Corner", {"random": lambda seed, limit: RandomPlayer(seed)})
    >>> roster.names, roster.make("random").name
    (('random',), 'random')
    """

    def __init__(self, game: str, makers: Mapping[str, PlayerMaker[SS, M]]) -> None:
        self.game = game
        self.makers = dict(makers)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.makers)

    def make(self, kind: str, seed: int | None = None, limit: Limit | None = None) -> Player[SS, M]:
        maker = self.makers.get(kind)
        if maker is None:
            raise ValueError(f"unknown {self.game} player {kind!r}: one of {', '.join(self.makers)}")
        return maker(seed, limit)


class RandomPlayer:
    """A uniformly random legal move (seeded, so games replay)."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, state: GameState[M]) -> M:
        return self.rng.choice(list(state.legal_moves()))


class SearchPlayer(Generic[M]):
    """Alpha-beta within a limit; keeps its transposition table between moves."""

    def __init__(self, limit: Limit, name: str = "search", engine: AlphaBeta[M] | None = None) -> None:
        self.name = name
        self.limit = limit
        self.engine: AlphaBeta[M] = engine or AlphaBeta()
        self.last: GameSearchResult[M] | None = None

    def choose(self, state: Searchable[M]) -> M:
        self.last = self.engine.search(state, self.limit)
        return self.last.move
