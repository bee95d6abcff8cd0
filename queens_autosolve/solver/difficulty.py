"""Puzzles of a chosen difficulty: made by the generator one seed after another, graded by the
coach (`solver.coach.grade`), and the first whose grade falls in the difficulty's tiers kept.

The difficulties, by the hardest step a person needs from the empty board:
- easy: singles and neighbours, or one unit confined;
- medium: several units confined together, or the k > 1 block rules;
- hard: a trial (place a queen, follow it to a contradiction) or a guess.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum

from queens_autosolve.solver.coach import Grade, Tier, grade
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle, Rule


class Difficulty(Enum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"

    @property
    def tiers(self) -> tuple[Tier, ...]:
        return _TIERS[self]


_TIERS = {
    Difficulty.EASY: (Tier.SINGLES, Tier.ONE_UNIT),
    Difficulty.MEDIUM: (Tier.SEVERAL_UNITS, Tier.BLOCKS),
    Difficulty.HARD: (Tier.TRIAL, Tier.GUESS),
}
# The smallest board (one queen a unit) on which each difficulty turns up. Measured, seeds 1..200:
# 4x4 all easy; 5x5 190 easy, 10 medium, no hard; 6x6 175 easy, 19 medium, 6 hard.
SMALLEST = {Difficulty.EASY: 4, Difficulty.MEDIUM: 5, Difficulty.HARD: 6}
# Seeds tried before giving up. Measured (seeds 1..40): 9x9 grade 58% easy, 35% medium, 7% hard;
# 11x11 42% easy, 55% medium, 2.5% hard.
MAX_TRIES = 200


@dataclass(frozen=True)
class GradedPuzzle:
    puzzle: Puzzle
    grade: Grade
    tries: int  # seeds made and graded before this one was kept (itself included)


class GradingStopped(QueensError):
    """`generate_graded` was told to stop before it found a puzzle."""


def offered(n: int, k: int = 1) -> tuple[Difficulty, ...]:
    """The difficulties an n x n board can be made in (all, with more than one queen a unit)."""
    return tuple(d for d in Difficulty if k > 1 or n >= SMALLEST[d])


def generate_graded(
    n: int, difficulty: Difficulty, *, k: int = 1, seed: int, rule: Rule = "touch",
    max_tries: int = MAX_TRIES, stop: Callable[[], bool] | None = None,
) -> GradedPuzzle:
    """The first puzzle of seeds `seed`, `seed`+1, ... whose grade matches `difficulty`, named
    after its own seed (so `generate --seed` of that seed makes it again) and carrying
    ``difficulty`` and ``grade`` in its header; QueensError after `max_tries` seeds.
    `stop` is asked before each seed: when it says so, GradingStopped."""
    for tries in range(1, max_tries + 1):
        if stop is not None and stop():
            raise GradingStopped(
                f"stopped looking for a {difficulty.value} {n}x{n} puzzle after {tries - 1} seeds")
        candidate = generate_puzzle(n, k, rng=seed + tries - 1, rule=rule)
        graded = grade(candidate)
        if graded.tier in difficulty.tiers:
            meta = {**candidate.meta, "difficulty": difficulty.value, "grade": graded.tier.short}
            return GradedPuzzle(replace(candidate, meta=meta), graded, tries)
    raise QueensError(
        f"no {difficulty.value} {n}x{n} puzzle among {max_tries} seeds from {seed}; "
        "try another --seed or --size"
    )


def random_seed() -> int:
    return random.SystemRandom().randrange(1_000_000)
