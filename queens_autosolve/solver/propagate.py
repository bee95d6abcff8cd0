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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

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
from queens_autosolve.solver.place_rules import drop_unsupported, settle_placements
from queens_autosolve.solver.squeeze_rules import squeeze_units
from queens_autosolve.solver.unit_rules import confine, eliminate_attackers, settle_units
from queens_autosolve.solver.wording import contradiction, trial_step

__all__ = [
    "DEFAULT_RULES",
    "RULES_CUTS",
    "RULES_MANY",
    "RULES_ONE",
    "RULES_PROBED",
    "RULES_WIDE",
    "TRIAL_SLACK",
    "Board",
    "Deduction",
    "RuleSet",
    "State",
    "Step",
    "StepKind",
    "board_of",
    "board_of_regions",
    "confine",
    "count_blocks",
    "cover_regions",
    "cut_regions",
    "eliminate_attackers",
    "fixed_point",
    "place",
    "propagate",
    "rules_for",
    "settle_placements",
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


# Slack 1: the trials seldom agree on anything in roomier units (figures: docs/solver.md).
TRIAL_SLACK = 1


# --- the rule lists -----------------------------------------------------------------------------
# Why each rule stays and where it runs was measured with benchmarks/starbattle.py --ablate:
# docs/solver.md holds the figures and the command.

RULES_ONE: tuple[Deduction, ...] = (settle_units, eliminate_attackers, confine)  # k = 1
# For k>1 squeeze_units stands in for eliminate_attackers; it runs late, as run early it reruns
# after every small step.
RULES_MANY: tuple[Deduction, ...] = (settle_units, cover_regions, count_blocks, squeeze_units, confine)
# The search from k = LEAN_FROM_K leaves confine out: there it is the dearest rule for the fewest finds.
RULES_WIDE: tuple[Deduction, ...] = (settle_units, cover_regions, count_blocks, squeeze_units)
LEAN_FROM_K = 2
# The search from k = CUTS_FROM_K to CUTS_TO_K runs cut_regions last, where RULES_MANY runs confine
# (cut_regions takes every cut of the board, confine only those of one region's lines): fewer nodes
# there; above, where count_blocks does its work, it costs more than it saves. Explanations leave
# it out (their steps stay those of RULES_MANY).
RULES_CUTS: tuple[Deduction, ...] = (*RULES_WIDE, cut_regions)
CUTS_FROM_K = 2
CUTS_TO_K = 4
# A search from a probed root (solver/search.py) adds drop_unsupported and settle_placements last
# (k>1): what the probes learned is what they see beyond the other rules.
RULES_PROBED: tuple[Deduction, ...] = (drop_unsupported, settle_placements)


@dataclass(frozen=True)
class RuleSet:
    """The rule lists propagation picks from (`for_k`), passed to `propagate` and the search, so a
    benchmark or a test runs the solver with other lists without reassigning this module's."""

    one: tuple[Deduction, ...] = RULES_ONE
    many: tuple[Deduction, ...] = RULES_MANY
    wide: tuple[Deduction, ...] = RULES_WIDE
    cuts: tuple[Deduction, ...] = RULES_CUTS
    probed: tuple[Deduction, ...] = RULES_PROBED
    lean_from_k: int = LEAN_FROM_K
    cuts_from_k: int = CUTS_FROM_K
    cuts_to_k: int = CUTS_TO_K

    def for_k(self, k: int, *, trials: bool = False, search: bool = False) -> tuple[Deduction, ...]:
        """The rules for k queens a unit; with `trials` (k>1 only) `trial` last; with `search`
        (not explaining) `wide` from k = lean_from_k up, `cuts` from k = cuts_from_k to cuts_to_k."""
        if k == 1:
            return self.one
        if trials:
            return (*self.many, trial)
        if search and self.cuts_from_k <= k <= self.cuts_to_k:
            return self.cuts
        return self.wide if search and k >= self.lean_from_k else self.many

    def after_probing(self) -> RuleSet:
        """These lists for a search from a probed root: `probed` added at the end of each k>1 list."""
        return replace(self, many=(*self.many, *self.probed), wide=(*self.wide, *self.probed),
                       cuts=(*self.cuts, *self.probed))

    def without(self, name: str) -> RuleSet:
        """These lists with the rule called `name` left out of each (`trial`'s own propagation
        keeps RULES_MANY)."""
        return self.each(lambda rules: tuple(rule for rule in rules if rule.__name__ != name))

    def each(self, change: Callable[[tuple[Deduction, ...]], tuple[Deduction, ...]]) -> RuleSet:
        """These lists, each passed through `change`."""
        return replace(self, one=change(self.one), many=change(self.many), wide=change(self.wide),
                       cuts=change(self.cuts), probed=change(self.probed))


DEFAULT_RULES = RuleSet()


def rules_for(
    k: int, *, trials: bool = False, search: bool = False, rules: RuleSet = DEFAULT_RULES
) -> tuple[Deduction, ...]:
    """The rules propagation runs for k queens a unit (see RuleSet.for_k)."""
    return rules.for_k(k, trials=trials, search=search)


# --- the loop -----------------------------------------------------------------------------------


def propagate(
    board: Board, cand: int, queens: int, log: list[Step] | None = None, *, trials: bool = False,
    rules: RuleSet = DEFAULT_RULES,
) -> State | None:
    """Apply the rules, cheapest first, until none changes anything; None on a contradiction.
    After any rule makes progress the cheap ones run again before the dearer ones. With `trials`
    (k>1 only) the bounded `trial` runs last, when the others have stalled. Without a log (the
    search) k > 1 boards run without confine: see RULES_WIDE and RULES_CUTS."""
    return fixed_point(board, cand, queens, rules.for_k(board.k, trials=trials, search=log is None), log)


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
