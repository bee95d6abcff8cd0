"""AI against AI: a match of many games with colours swapped every other game, the score, and
the Elo difference with its 95% error bar.

>>> [round(x) for x in elo_difference(wins=75, games=100)]
[191, 79]
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from queens_autosolve.twoplayer.game import M, S, outcome
from queens_autosolve.twoplayer.players import Player


@dataclass(frozen=True)
class MatchResult:
    """Games won by each side of a match (these games have no draws), and time per move."""

    p1: str
    p2: str
    p1_wins: int
    p2_wins: int
    seconds_per_move: tuple[float, float]
    slowest_move: tuple[float, float]

    @property
    def games(self) -> int:
        return self.p1_wins + self.p2_wins

    def summary(self) -> str:
        speed = self.seconds_per_move
        return (
            f"{self.p1} {self.p1_wins} - {self.p2_wins} {self.p2} over {self.games} games; "
            f"{self.elo_text()}; "
            f"seconds per move (mean/max): {self.p1} {speed[0]:.3f}/{self.slowest_move[0]:.3f}, "
            f"{self.p2} {speed[1]:.3f}/{self.slowest_move[1]:.3f}"
        )


    def elo_text(self) -> str:
        """The Elo difference with its 95% error bar; when one side won every game there is no
        finite estimate, and the text says who won them all instead of printing infinity.

        >>> MatchResult("a", "b", 0, 4, (0.0, 0.0), (0.0, 0.0)).elo_text()
        'Elo difference: none measurable, b won all 4 games'
        >>> MatchResult("a", "b", 3, 1, (0.0, 0.0), (0.0, 0.0)).elo_text()
        'Elo difference (a minus b): +191 +/- 393 (95%)'
        """
        elo, error = elo_difference(self.p1_wins, self.games)
        if not math.isfinite(elo):
            winner = self.p1 if self.p1_wins else self.p2
            return f"Elo difference: none measurable, {winner} won all {self.games} games"
        return f"Elo difference ({self.p1} minus {self.p2}): {elo_text_of(elo)} +/- {error:.0f} (95%)"

    def as_json(self) -> dict[str, object]:
        """The match as JSON: the Elo difference and its error are null when one side won every
        game (JSON has no infinity)."""
        elo, error = elo_difference(self.p1_wins, self.games)
        finite = math.isfinite(elo)
        return {
            "p1": self.p1, "p2": self.p2, "p1_wins": self.p1_wins, "p2_wins": self.p2_wins,
            "games": self.games, "elo": round(elo, 1) + 0.0 if finite else None,  # + 0.0: no "-0.0"
            "elo_error_95": round(error, 1) if finite else None,
            "seconds_per_move": [round(s, 6) for s in self.seconds_per_move],
            "slowest_move": [round(s, 6) for s in self.slowest_move],
        }


def elo_text_of(elo: float) -> str:
    """An Elo difference as people write it: signed, whole, and no "-0" or "+-0".

    >>> [elo_text_of(x) for x in (191.4, -0.0, -0.4, -35.6, float("inf"), -float("inf"))]
    ['+191', '0', '0', '-36', '+inf', '-inf']
    """
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    whole = round(elo)
    return f"{whole:+d}" if whole else "0"


def elo_difference(wins: float, games: int) -> tuple[float, float]:
    """Elo difference for a score of `wins` out of `games`, and the 95% error half-width
    (normal approximation of the score, carried through the logistic curve). Scores of 0 or
    all games give infinite differences."""
    if games <= 0:
        return 0.0, math.inf
    score = wins / games
    if score <= 0.0 or score >= 1.0:
        return (math.inf if score >= 1.0 else -math.inf), math.inf
    elo = -400.0 * math.log10(1.0 / score - 1.0)
    stderr = math.sqrt(score * (1.0 - score) / games)
    slope = 400.0 / (math.log(10.0) * score * (1.0 - score))  # d(elo)/d(score)
    return elo, 1.96 * stderr * slope


def play_match(
    new_game: Callable[[int], S],
    p1: Player[S, M],
    p2: Player[S, M],
    games: int,
    *,
    on_game: Callable[[int, int], None] | None = None,
) -> MatchResult:
    """`games` games; p1 moves first in even-numbered games, p2 in odd ones. `new_game(i)`
    builds the starting position of game i (so both colourings of a random board can be
    played by passing the same seed for games 2k and 2k+1)."""
    wins = [0, 0]
    seconds = [0.0, 0.0]
    slowest = [0.0, 0.0]
    moves = [0, 0]
    for index in range(games):
        state = new_game(index)
        seats = (p1, p2) if index % 2 == 0 else (p2, p1)
        while not state.is_over():
            player = seats[state.turn]
            who = 0 if player is p1 else 1
            start = time.perf_counter()
            move = player.choose(state)
            spent = time.perf_counter() - start
            seconds[who] += spent
            slowest[who] = max(slowest[who], spent)
            moves[who] += 1
            state.push(move)
        result = outcome(state)
        assert result is not None
        winner = 0 if seats[result.winner] is p1 else 1
        wins[winner] += 1
        if on_game:
            on_game(index, winner)
    per_move = tuple(s / m if m else 0.0 for s, m in zip(seconds, moves))
    return MatchResult(p1.name, p2.name, wins[0], wins[1], per_move, (slowest[0], slowest[1]))  # type: ignore[arg-type]
