"""Constraint propagation: the deduction rules, run cheapest first to a fixed point.

The rules live by idea: the unit rules (singles, attackers, confinement: solver/unit_rules.py),
the block rules for k > 1 (solver/block_rules.py), and here the bounded `trial`, which runs
propagation inside itself. The state they work on is solver/board.py; their words,
solver/wording.py. This module holds the rule lists and the loop that runs them.

Every rule has the shape ``rule(board, cand, queens, log) -> (cand, queens) | None``: it returns
the smaller state, or None when it finds a contradiction (a return value, not an exception, so
the search stays cheap). `log` is None in the hot path; `explain` passes a list and each rule
appends a `Step` saying what it deduced. A *rule* here is always a deduction; the touching rule
of a puzzle is `Puzzle.rule` (solver/puzzle.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.block_rules import count_blocks, cover_regions, squeeze_units
from solver.board import (
    Board,
    Deduction,
    State,
    Step,
    StepKind,
    board_of,
    board_of_regions,
    place,
)
from solver.unit_rules import confine, eliminate_attackers, settle_units
from solver.wording import contradiction, trial_step

__all__ = [
    "RULES_MANY",
    "RULES_ONE",
    "RULES_WITH_TRIAL",
    "TRIAL_SLACK",
    "Board",
    "Deduction",
    "State",
    "Step",
    "StepKind",
    "board_of",
    "board_of_regions",
    "confine",
    "count_blocks",
    "cover_regions",
    "eliminate_attackers",
    "fixed_point",
    "place",
    "propagate",
    "rules_for",
    "settle_units",
    "squeeze_units",
    "trial",
]


def trial(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For k>1, a bounded trial: put a queen on each candidate of a tight unit in turn, propagate
    with the other rules, and keep what holds whichever way the unit is filled. The unit's next
    queen is on one of its candidates, so a candidate whose trial ends in a contradiction goes, a
    cell that no surviving trial leaves in play goes, and a queen every surviving trial places is
    forced. Bounded: only units with at most TRIAL_SLACK candidates to spare are tried (each trial
    costs a full propagation, and a roomy unit's trials seldom agree on anything), and the trials
    themselves propagate without trials."""
    k = board.k
    probes: dict[int, State | None] = {}  # a cell's trial, shared by its row, column and region
    drop = forced = 0
    tried: list[int] = []  # the units whose trials found something, for the explanation
    for u, unit in enumerate(board.units):
        need = k - (unit & queens).bit_count()
        live = cand & unit
        if not need or live.bit_count() - need > TRIAL_SLACK:
            continue
        found = _trial_unit(board, cand, queens, live, probes)
        if found is None:
            return contradiction(f"every queen {board.puzzle.unit_name(u)} could take fails", log)
        if (found[0] & ~drop) or (found[1] & ~forced):
            tried.append(u)
        drop |= found[0]
        forced |= found[1]
    if not (drop or forced):
        return cand, queens
    if log is not None:
        log.append(trial_step(board, tried, drop, forced))
    state = place(board, cand & ~drop, queens, forced)
    return state or contradiction("the queens every trial places touch", log)


def _trial_unit(
    board: Board, cand: int, queens: int, live: int, probes: dict[int, State | None]
) -> State | None:
    """Try a queen on each cell of `live` (an open unit's candidates): the cells to remove and the
    queens forced, or None when every trial fails."""
    reach, common = 0, -1  # over the surviving trials: the cells left in play, the queens in all
    failed = 0
    while live:
        low = live & -live
        live ^= low
        if low not in probes:
            state = place(board, cand, queens, low)
            probes[low] = state and fixed_point(board, state[0], state[1], RULES_MANY)
        state = probes[low]
        if state is None:
            failed |= low
        else:
            reach |= state[0] | state[1]
            common &= state[1]
    if common == -1:
        return None
    return failed | cand & ~reach, common & ~queens


# Why it stays, and where: measured on every k>1 shared set (benchmarks/starbattle.py). With
# slack 1, trials at every node halve the nodes of 17-4-sample (505 -> 296 a puzzle), slack 2
# cuts them 3.5x (-> 147), but each node then runs 10-40 full propagations, so the time goes up
# 1.3-2x; at the root only they save nodes (14-3-hard 1.6 -> 1.0) and cost up to 29% time (see
# TRIAL_DEPTH in solver/search.py for the figures). Slack 0 finds nothing settle_units misses. A
# cheaper trial propagation (settle_units, cover_regions and count_blocks only) found less and was
# no faster. So the search leaves trials out (solver.search.TRIAL_DEPTH) and `explain` runs them at
# the root, where one trial step replaces a guess and its backtracking for the reader.
TRIAL_SLACK = 1


# --- the rule lists -----------------------------------------------------------------------------

RULES_ONE = (settle_units, eliminate_attackers, confine)  # k = 1
# For k>1 squeeze_units stands in for eliminate_attackers (it finds what that does, and more).
# Its place was measured: run early it reruns after every small step, and the boards that
# propagation alone solves (21x21, 25x25) got slower than before it existed.
RULES_MANY = (settle_units, cover_regions, count_blocks, squeeze_units, confine)
# Why each k>1 rule stays: the search with the rule left out against the search with all of them
# (benchmarks/starbattle.py --ablate: first 200 of each shared k>1 set and games/stars4-17-hard;
# nodes a puzzle, mean; time as the ratio without/with, mean, over two runs on a shared machine,
# where identical solvers differ by up to 10% in mean, so only larger ratios count):
# - cover_regions: slower without it on every set: hard 17x17 1.37-1.45x (nodes 864 -> 997),
#   17-4 1.20-1.51x, 25-6 1.62-1.69x, 21-5 1.44-1.51x, 14-3 1.30-1.64x, 9-2 and 10-2 1.07-1.12x.
# - count_blocks: the rule the big boards live on: without it the hard 17x17 set takes 6x the
#   time (nodes 864 -> 16,111), 17-4 5.9-6.9x (506 -> 8,700), 21-5 1.6-1.7x. On 9-2 .. 14-3 it
#   costs 2-17% of the mean and keeps the worst cases down (max 1.24-1.76x without it).
# - squeeze_units: hard 17x17 1.22-1.39x without it (nodes 864 -> 1,692), 10-2 worst case
#   1.58-1.71x (max nodes 76 -> 217), 9-2 1.08x; elsewhere within the noise.
# - confine: the node saver of the 2-star sets: 11-2-hard 1.20-1.26x without it (worst 3.5-3.8x,
#   nodes 3.7 -> 16.8), 10-2 1.09-1.11x (nodes 13.5 -> 37.2). It costs 5-13% on 14-3, 21-5, 25-6
#   and the 17x17 sets (hard set 0.87-0.95x without it although its nodes go 864 -> 987). Kept:
#   on the 2-star sets, the largest, it saves most.
# - trial: see TRIAL_SLACK above; the search runs without it.
RULES_WITH_TRIAL = RULES_MANY + (trial,)


def rules_for(k: int, *, trials: bool = False) -> tuple[Deduction, ...]:
    """The rules propagation runs for k queens a unit; with `trials` (k>1 only) `trial` last.
    (Read at each call, so benchmarks/starbattle.py can leave a rule out.)"""
    return RULES_ONE if k == 1 else RULES_WITH_TRIAL if trials else RULES_MANY


# --- the loop -----------------------------------------------------------------------------------


def propagate(
    board: Board, cand: int, queens: int, log: list[Step] | None = None, *, trials: bool = False
) -> State | None:
    """Apply the rules, cheapest first, until none changes anything; None on a contradiction.
    After any rule makes progress the cheap ones run again before the dearer ones. With `trials`
    (k>1 only) the bounded `trial` runs last, when the others have stalled."""
    return fixed_point(board, cand, queens, rules_for(board.k, trials=trials), log)


def fixed_point(
    board: Board, cand: int, queens: int, rules: Sequence[Deduction], log: list[Step] | None = None
) -> State | None:
    """Run `rules` until none changes anything; None on a contradiction. After a rule makes
    progress the first rule runs again (unless it was the one: it settles to its own fixed point)."""
    i = 0
    while i < len(rules):
        state = rules[i](board, cand, queens, log)
        if state is None:
            return None
        if state[0] != cand:
            cand, queens = state
            i = 0 if i else 1
        else:
            i += 1
    return cand, queens
