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

from queens_autosolve.solver.block_rules import count_blocks, cover_regions
from queens_autosolve.solver.board import (
    Board,
    Deduction,
    LastCalls,
    State,
    Step,
    StepKind,
    board_of,
    board_of_regions,
    place,
)
from queens_autosolve.solver.cut_rules import cut_regions
from queens_autosolve.solver.squeeze_rules import squeeze_units
from queens_autosolve.solver.unit_rules import confine, eliminate_attackers, settle_units
from queens_autosolve.solver.wording import contradiction, trial_step

__all__ = [
    "RULES_MANY",
    "RULES_ONE",
    "RULES_CUTS",
    "RULES_WIDE",
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
    "cut_regions",
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
    calls = board.memo.last_calls()  # each trial starts from this state, and so does what follows
    drop = forced = 0
    tried: list[int] = []  # the units whose trials found something, for the explanation
    for u, unit in enumerate(board.units):
        need = k - (unit & queens).bit_count()
        live = cand & unit
        if not need or live.bit_count() - need > TRIAL_SLACK:
            continue
        found = _trial_unit(board, cand, queens, live, probes, calls)
        if found is None:
            return contradiction(f"every queen {board.puzzle.unit_name(u)} could take fails", log)
        if (found[0] & ~drop) or (found[1] & ~forced):
            tried.append(u)
        drop |= found[0]
        forced |= found[1]
    board.memo.resume(calls)
    if not (drop or forced):
        return cand, queens
    if log is not None:
        log.append(trial_step(board, tried, drop, forced))
    state = place(board, cand & ~drop, queens, forced)
    return state or contradiction("the queens every trial places touch", log)


def _trial_unit(
    board: Board, cand: int, queens: int, live: int, probes: dict[int, State | None], calls: LastCalls
) -> State | None:
    """Try a queen on each cell of `live` (an open unit's candidates): the cells to remove and the
    queens forced, or None when every trial fails."""
    reach, common = 0, -1  # over the surviving trials: the cells left in play, the queens in all
    failed = 0
    while live:
        low = live & -live
        live ^= low
        if low not in probes:
            board.memo.resume(calls)
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
# no faster. Trials resuming the rules' memory (Memo.resume, issue 12) still cost more than the
# nodes they save: at every node 17-4 300 ms mean (nodes 276) against 222 (608), the hard set 395
# against 282 (442 against 834 nodes). So the search leaves trials out (solver.search.TRIAL_DEPTH)
# and `explain` runs them at the root, where one trial step replaces a guess and its backtracking
# for the reader.
TRIAL_SLACK = 1


# --- the rule lists -----------------------------------------------------------------------------

RULES_ONE: tuple[Deduction, ...] = (settle_units, eliminate_attackers, confine)  # k = 1
# For k>1 squeeze_units stands in for eliminate_attackers (it finds what that does, and more).
# Its place was measured: run early it reruns after every small step, and the boards that
# propagation alone solves (21x21, 25x25) got slower than before it existed.
RULES_MANY: tuple[Deduction, ...] = (settle_units, cover_regions, count_blocks, squeeze_units, confine)
# Why each k>1 rule stays: the search with the rule left out against the search with all of them
# (benchmarks/starbattle.py --ablate: first 200 of each shared k>1 set and games/stars4-17-hard;
# time as the ratio without/with, mean (worst); nodes a puzzle, mean. Measured 2026-11-23 after
# the rules went incremental, one run on a shared machine, where identical solvers differ by up
# to 10% in mean, so only larger ratios count; earlier runs found the same picture):
# - cover_regions: slower without it almost everywhere: 25-6 1.78x, 21-5 1.66x, 14-3-med 1.62x
#   (worst 5.8x), 14-3-hard 1.37x, hard 17x17 1.24x (nodes 864 -> 997), 11-2 1.22x; 9-2, 10-2,
#   17-4 1.04-1.07x.
# - count_blocks: the rule the big boards live on: without it the hard 17x17 set takes 8.1x the
#   time (nodes 864 -> 16,111), 17-4 5.1x (506 -> 8,699), 21-5 1.9x (worst 4.9x), 25-6 1.2x
#   (worst 3.5x). On 9-2 .. 14-3 it saves 1-15% of the mean and keeps the worst cases down.
# - squeeze_units: hard 17x17 1.24x without it (nodes 864 -> 1,692), 10-2 worst case 1.81x (max
#   nodes 76 -> 217), 9-2 worst 1.42x, 21-5 worst 1.43x; the means elsewhere within the noise.
# - confine: the node saver of the 2-star sets: 11-2-hard worst 2.4x without it (nodes 3.7 ->
#   16.8), 10-2 worst 1.4x (nodes 13.5 -> 37.2). For k >= 3 the search now runs without it: see
#   RULES_WIDE below.
# - trial: see TRIAL_SLACK above; the search runs without it.
RULES_WITH_TRIAL: tuple[Deduction, ...] = RULES_MANY + (trial,)
# The search for k >= 3 leaves confine out (explanations keep it). Once the other rules got
# cheaper (issue 12: they look only at the units changed since their last call), confine became
# the dearest rule a node (~17% of the time on the slowest 17x17 puzzle) for the fewest finds
# (8% of its calls). Measured with --ablate, 2026-11-23, first run without it against with it,
# second run (this list) with it against without: 14-3-hard 0.84x / 1.22x the mean time,
# 14-3-med 0.84x / 1.23x, 21-5 0.88x / 1.15x, 25-6 0.88x / 1.12x, hard 17x17 0.89x / 1.16x (nodes
# 864 -> 987, worst time 0.75x / 1.03x), 17-4 0.68x / 0.93x (6 puzzles; nodes 506 -> 604). On the
# 2-star sets it stays: without it 11-2-hard takes 2.4x its worst time (nodes 14 -> 131), 10-2 1.4x.
RULES_WIDE: tuple[Deduction, ...] = (settle_units, cover_regions, count_blocks, squeeze_units)
LEAN_FROM_K = 3
# The search for k >= CUTS_FROM_K adds cut_regions (solver/cut_rules.py) last: the cuts between
# adjacent lines against the regions they split, with up to 3 units' worth of queens counted in
# 2x2 blocks. Measured (issue 12, benchmarks/starbattle.py --before b59cb45, one process; nodes
# mean/max, CPU ms mean/max; MARGIN 3 in solver/branching.py): 17-4-sample 569/1877 -> 230/709
# nodes, 134/402 -> 105/305 ms; the hard 17x17 set 808/1952 -> 405/1293 nodes, 207/525 -> 180/442
# ms. Its every strip of lines (not only those from an edge) cut the nodes 5% more at twice the
# cost; run before squeeze_units, no better. The boards that propagation alone solves pay for it:
# 21-5 2.9 -> 3.2 ms mean (nodes 1.4/7 -> 1.1/3), 25-6 3.2 -> 3.5 ms. From k = 3 it takes 14-3-hard
# from 3.1/22 nodes to 1.4/11 but 1.38 -> 1.56 ms mean (14-3-med 0.99 -> 1.10 ms): not there.
# Explanations leave it out (their steps stay those of RULES_MANY).
RULES_CUTS: tuple[Deduction, ...] = RULES_WIDE + (cut_regions,)
CUTS_FROM_K = 4


def rules_for(k: int, *, trials: bool = False, search: bool = False) -> tuple[Deduction, ...]:
    """The rules propagation runs for k queens a unit; with `trials` (k>1 only) `trial` last;
    with `search` (not explaining) RULES_WIDE from k = LEAN_FROM_K up, RULES_CUTS from
    k = CUTS_FROM_K. (Read at each call, so benchmarks/starbattle.py can leave a rule out.)"""
    if k == 1:
        return RULES_ONE
    if trials:
        return RULES_WITH_TRIAL
    if search and k >= CUTS_FROM_K:
        return RULES_CUTS
    return RULES_WIDE if search and k >= LEAN_FROM_K else RULES_MANY


# --- the loop -----------------------------------------------------------------------------------


def propagate(
    board: Board, cand: int, queens: int, log: list[Step] | None = None, *, trials: bool = False
) -> State | None:
    """Apply the rules, cheapest first, until none changes anything; None on a contradiction.
    After any rule makes progress the cheap ones run again before the dearer ones. With `trials`
    (k>1 only) the bounded `trial` runs last, when the others have stalled. Without a log (the
    search) k >= 3 boards run without confine: see RULES_WIDE."""
    return fixed_point(board, cand, queens, rules_for(board.k, trials=trials, search=log is None), log)


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
