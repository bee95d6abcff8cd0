"""The coach: the mistakes on a player's board, the next deduction a person can follow from the
board as it stands, and a puzzle's grade (the hardest kind of deduction it needs).

Vocabulary as in solver/board.py: *cand* is the mask of cells that may still hold a queen,
*queens* the mask of cells that do. A player's board is a `Position`: their queens (locked ones
included) and their X marks. A cell counts as ruled out when it is X-marked or when a queen
already rules it out (its row, column, region and neighbours for k = 1): a player need not mark
those to follow a hint.

The next step is found by trying the rules in tiers, simplest first (`ladder`): each rule runs
once from the board as it stands, and the first one that makes progress gives its first
deduction (the only one sure to follow from that board alone). The rules are propagate's own;
the coach adds two that split the easy cases off propagate's broader ones (`touch_all` for
"neighbours", `confine_one` for "one unit confined"), then the trial (`Coach._trial`: a queen
that leads to a contradiction by propagation), then a guess. A step's tier comes from its
`kind` through the one table `TIER_OF_KIND`, so rules added to propagate later are graded too.

Pure logic: no screen imports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from queens_autosolve.solver.block_rules import count_blocks, cover_regions
from queens_autosolve.solver.board import Board, Deduction, State, Step, StepKind, board_of, place
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.propagate import fixed_point, rules_for
from queens_autosolve.solver.puzzle import Cell, Puzzle, Solution, cell_name, cells_of, mask_of
from queens_autosolve.solver.search import search
from queens_autosolve.solver.squeeze_rules import squeeze_units
from queens_autosolve.solver.unit_rules import confine, eliminate_attackers, settle_units


class Tier(IntEnum):
    """How hard a deduction is for a person, easiest first."""

    SINGLES = 1
    ONE_UNIT = 2
    SEVERAL_UNITS = 3
    BLOCKS = 4
    TRIAL = 5
    GUESS = 6

    @property
    def title(self) -> str:
        return _TITLES[self]

    @property
    def short(self) -> str:
        """A one-word name for table columns."""
        return self.name.lower().replace("_", "-")


_TITLES = {
    Tier.SINGLES: "singles and neighbours",
    Tier.ONE_UNIT: "one unit confined",
    Tier.SEVERAL_UNITS: "several units confined together",
    Tier.BLOCKS: "block rules (k>1)",
    Tier.TRIAL: "needs a trial",
    Tier.GUESS: "needs a guess",
}

# The one table from a Step's kind to its tier. `neighbours`, `confine-one` and `squeeze` are the
# coach's own kinds: the first two are its rules `touch_all` and `confine_one` below, which split
# the easy cases off propagate's `eliminate_attackers` (`attack`: a queen that would take every
# candidate of one unit, which covers both); propagate's squeeze_units logs its steps as
# `attack`, but they count 2x2 blocks (see `_RENAMED`).
TIER_OF_KIND: dict[str, Tier] = {
    StepKind.SINGLE: Tier.SINGLES,
    StepKind.NEIGHBOURS: Tier.SINGLES,
    StepKind.ATTACK: Tier.ONE_UNIT,
    StepKind.CONFINE_ONE: Tier.ONE_UNIT,
    StepKind.CONFINE: Tier.SEVERAL_UNITS,
    StepKind.BLOCK: Tier.BLOCKS,
    StepKind.LINE: Tier.BLOCKS,
    StepKind.SQUEEZE: Tier.BLOCKS,
    StepKind.TRIAL: Tier.TRIAL,
    StepKind.GUESS: Tier.GUESS,
}
# A kind the table does not know (a rule added to propagate since) ranks with the block rules:
# the hardest tier that is still plain propagation, so a new rule never makes a puzzle look
# easier than it is, and never passes for a trial or a guess.
UNKNOWN_TIER = Tier.BLOCKS
_RENAMED = {squeeze_units.__name__: StepKind.SQUEEZE}  # rule name -> the kind its steps are graded as


def tier_of(kind: str) -> Tier:
    """The tier of a Step kind (UNKNOWN_TIER for a kind the table does not know)."""
    return TIER_OF_KIND.get(kind, UNKNOWN_TIER)


class CoachError(QueensError):
    """The puzzle cannot be coached: it does not have exactly one solution."""


@dataclass(frozen=True)
class Position:
    """The board as the player has it: their queens (locked queens too) and their X marks."""

    queens: frozenset[Cell] = frozenset()
    marks: frozenset[Cell] = frozenset()

    @classmethod
    def of(cls, queens: Iterable[Cell] = (), marks: Iterable[Cell] = ()) -> Position:
        return cls(frozenset(queens), frozenset(marks))

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> Position:
        """From rows of cell characters: ``Q`` or ``L`` a queen, ``x`` an X mark, else empty.

        >>> sorted(Position.from_rows(["Qx", ".."]).marks)
        [(0, 1)]
        """
        cells = [((r, c), ch) for r, row in enumerate(rows) for c, ch in enumerate(row)]
        return cls.of((cell for cell, ch in cells if ch in "QLq"), (cell for cell, ch in cells if ch in "xX"))


@dataclass(frozen=True)
class Mistake:
    """A queen that is not in the solution, or an X where a queen must go. `because` is the chain
    of deductions from the mistake to the contradiction, when propagation finds one."""

    cell: Cell
    what: str  # "queen" or "mark"
    text: str
    because: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"cell": list(self.cell), "what": self.what, "text": self.text, "because": list(self.because)}


@dataclass(frozen=True)
class Hint:
    """One deduction to make next: the rule (a Step kind), its tier, the sentence, the cells it
    concerns (those it changes and the candidates of the units it names), the cells it lets you
    X and the one queen it lets you place (None: no queen; a step that forces several queens,
    k > 1, places the first and the next hint the others).
    A `guess` hint places nothing: no rule the coach knows makes progress. `depth` is a trial's
    number of deductions from the tried queen to the contradiction, the contradiction included."""

    rule: str
    tier: Tier
    text: str
    cells: tuple[Cell, ...]
    marks: tuple[Cell, ...] = ()
    queen: Cell | None = None
    depth: int = 0

    @property
    def moves(self) -> bool:
        """Whether the step changes the board (a guess does not)."""
        return bool(self.marks) or self.queen is not None

    def action(self) -> str:
        """What to do on the board, in words."""
        parts = []
        if self.queen is not None:
            parts.append(f"place a queen on {cell_name(self.queen)}")
        if self.marks:
            parts.append(f"mark X on {', '.join(map(cell_name, self.marks))}")
        return "; ".join(parts) or "nothing to mark yet: try the cells in turn"

    def to_json(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "tier": int(self.tier),
            "tier_name": self.tier.title,
            "cells": [list(c) for c in self.cells],
            "marks": [list(c) for c in self.marks],
            "queen": list(self.queen) if self.queen is not None else None,
            "depth": self.depth,
            "text": self.text,
        }


@dataclass(frozen=True)
class Advice:
    """What the coach says about a position: the mistakes, else the next step (None when solved)."""

    mistakes: tuple[Mistake, ...]
    step: Hint | None
    solved: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "mistakes": [m.to_json() for m in self.mistakes],
            "step": self.step.to_json() if self.step else None,
            "solved": self.solved,
        }

    def lines(self) -> list[str]:
        """The advice for people."""
        if self.mistakes:
            return [f"mistake: {m.text}" for m in self.mistakes]
        if self.solved or self.step is None:
            return ["solved: every queen is in place"]
        step = self.step
        depth = f", depth {step.depth}" if step.depth else ""
        return [f"next step ({step.tier.title}{depth}): {step.text}", f"  {step.action()}"]


@dataclass(frozen=True)
class Grade:
    """How hard a puzzle is: the hardest tier its hints need from the empty board, the number of
    steps, the deepest trial (deductions from the tried queen to the contradiction) and how many
    guesses. `tiers` counts the steps per tier."""

    tier: Tier
    steps: int
    trial_depth: int = 0
    guesses: int = 0
    tiers: dict[Tier, int] = field(default_factory=dict)

    def describe(self) -> str:
        depth = f" (depth {self.trial_depth})" if self.tier is Tier.TRIAL else ""
        guesses = f" ({self.guesses} guess{'es' if self.guesses > 1 else ''})" if self.guesses else ""
        return f"{self.tier.title}{depth}{guesses}, {self.steps} steps"

    def to_json(self) -> dict[str, object]:
        return {
            "tier": int(self.tier), "name": self.tier.title, "steps": self.steps,
            "trial_depth": self.trial_depth, "guesses": self.guesses,
            "tiers": {t.short: count for t, count in sorted(self.tiers.items())},
        }


# --- the coach's own rules ---------------------------------------------------------------------


def touch_all(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """Neighbours: a cell outside an open unit that touches every candidate of the unit would
    leave it no queen, so it goes. (The part of `eliminate_attackers` a person sees at a glance.)"""
    k, neighbours = board.k, board.neighbours
    for u, unit in enumerate(board.units):
        live = cand & unit
        if not live or (unit & queens).bit_count() >= k:
            continue
        common = -1
        for r, c in cells_of(live, board.n):
            common &= neighbours[r * board.n + c]
        drop = common & cand & ~unit
        if drop:
            if log is not None:
                one = not drop & (drop - 1)
                text = (f"{board.names(drop)} {'touches' if one else 'touch'} every candidate of "
                        f"{board.puzzle.unit_name(u)}: remove {'it' if one else 'them'}")
                log.append(Step(text, board.cells(drop), kind=StepKind.NEIGHBOURS))
            return cand & ~drop, queens
    return cand, queens


def confine_one(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """One unit confined: a region whose cells left all lie in one row (column) holds that line's
    queens, so the line's other cells go; a row (column) whose cells left all lie in one region
    holds that region's queens, so the region's other cells go. (propagate's `confine` does this
    and the same for several units together; run first, this keeps the easy case apart.)"""
    live = cand | queens
    puzzle = board.puzzle
    for g, region in enumerate(board.region_masks):
        inside = live & region
        for lines, word in ((board.rows, "row"), (board.cols, "column")):
            hit = [a for a, line in enumerate(lines) if line & inside]
            if len(hit) != 1:
                continue
            drop = cand & lines[hit[0]] & ~region
            if drop:
                text = (f"{puzzle.region_name(g)} is confined to {word} {hit[0] + 1}: "
                        f"remove {board.names(drop)}")
                return _drop(board, cand, queens, drop, text, log)
    for lines, word in ((board.rows, "row"), (board.cols, "column")):
        for a, line in enumerate(lines):
            hit = [g for g, region in enumerate(board.region_masks) if region & live & line]
            if len(hit) != 1:
                continue
            drop = cand & board.region_masks[hit[0]] & ~line
            if drop:
                text = (f"{word} {a + 1} lies within {puzzle.region_name(hit[0])}: "
                        f"remove {board.names(drop)}")
                return _drop(board, cand, queens, drop, text, log)
    return cand, queens


def _drop(board: Board, cand: int, queens: int, drop: int, text: str, log: list[Step] | None) -> State:
    if log is not None:
        log.append(Step(text, board.cells(drop), kind=StepKind.CONFINE_ONE))
    return cand & ~drop, queens


def base_rules(board: Board) -> tuple[Deduction, ...]:
    """propagate's rules for this board, without search of any kind (no trial)."""
    return rules_for(board.k)


def ladder(board: Board) -> tuple[Deduction, ...]:
    """The rules in the order hints try them: simplest tier first. Rules propagate has that the
    coach does not list come after the listed ones (and are graded by the kind of their steps)."""
    first: list[Deduction] = [settle_units, touch_all, confine_one, eliminate_attackers, confine]
    if board.k > 1:
        first += [cover_regions, count_blocks, squeeze_units]
    rest = [rule for rule in base_rules(board) if rule not in first]
    return (*first, *rest)


# --- the coach ---------------------------------------------------------------------------------


class Coach:
    """Hints and mistakes for one puzzle with exactly one solution (CoachError otherwise)."""

    def __init__(self, puzzle: Puzzle, solution: Solution | None = None) -> None:
        self.puzzle = puzzle
        self.board = board_of(puzzle)
        if solution is None:
            result = search(puzzle, limit=2)
            if result.count != 1:
                many = "no solution" if not result.count else "more than one solution"
                raise CoachError(f"the puzzle has {many}; hints need a puzzle with exactly one")
            solution = result.solution
        assert solution is not None
        self.solution = solution
        self.answer = mask_of(solution.queens, puzzle.n)
        self.full = (1 << puzzle.n * puzzle.n) - 1
        self.rules = ladder(self.board)

    # --- the position as masks

    def state_of(self, position: Position) -> State:
        """(cand, queens) of a position without mistakes."""
        n = self.puzzle.n
        queens = mask_of(position.queens, n) | mask_of(self.puzzle.given, n)
        state = place(self.board, self.full & ~mask_of(position.marks, n), 0, queens)
        assert state is not None, "a position without mistakes breaks no rule"
        return state

    # --- what the coach says

    def advise(self, position: Position) -> Advice:
        mistakes = self.mistakes(position)
        if mistakes:
            return Advice(mistakes, None)
        cand, queens = self.state_of(position)
        if queens.bit_count() == self.board.total:
            return Advice((), None, solved=True)
        return Advice((), self.next_step(cand, queens))

    def mistakes(self, position: Position) -> tuple[Mistake, ...]:
        """Wrong queens, then X marks where a queen must go, each explained from the right part of
        the board by propagating to the first contradiction (never by showing the solution)."""
        n, answer = self.puzzle.n, self.answer
        right_queens = {c for c in position.queens if answer >> (c[0] * n + c[1]) & 1}
        right_marks = {c for c in position.marks if not answer >> (c[0] * n + c[1]) & 1}
        base = self.state_of(Position.of(right_queens, right_marks))
        found = [self._wrong_queen(base, cell) for cell in sorted(set(position.queens) - right_queens)]
        found += [self._wrong_mark(base, cell) for cell in sorted(set(position.marks) - right_marks)]
        return tuple(found)

    def _wrong_queen(self, base: State, cell: Cell) -> Mistake:
        name = cell_name(cell)
        bit = 1 << (cell[0] * self.puzzle.n + cell[1])
        cand, queens = base
        if not cand & bit:
            return Mistake(cell, "queen", f"the queen on {name} cannot be right: {self._clash(queens, cell)}")
        state = place(self.board, cand, queens, bit)
        chain, why = self._contradiction(state)
        if why is None:
            text = (f"the queen on {name} cannot be right: the board cannot be finished with it "
                    "(no short chain of deductions shows why; take it off and look again)")
        else:
            text = f"the queen on {name} cannot be right: {_leads(chain)}{why}"
        return Mistake(cell, "queen", text, tuple(chain))

    def _wrong_mark(self, base: State, cell: Cell) -> Mistake:
        name = cell_name(cell)
        # base already lacks this X (it keeps only the right marks): rule the cell out again
        cand, queens = base
        bit = 1 << (cell[0] * self.puzzle.n + cell[1])
        chain, why = self._contradiction((cand & ~bit, queens))
        text = f"the X on {name} is wrong: a queen must go there"
        if why is not None:
            text += f"; without one, {_leads(chain)}{why}"
        return Mistake(cell, "mark", text, tuple(chain))

    def _contradiction(self, state: State | None) -> tuple[list[str], str | None]:
        """The deductions from `state` to the first contradiction, and the contradiction in words
        (None when propagation finds none)."""
        if state is None:
            return [], "the rules are broken at once"
        log: list[Step] = []
        if fixed_point(self.board, state[0], state[1], base_rules(self.board), log) is not None:
            return [], None
        chain = [step.text for step in log if step.kind != StepKind.CONTRADICTION]
        ends = (s.text for s in reversed(log) if s.kind == StepKind.CONTRADICTION)
        last = next(ends, "contradiction: no way on")
        return chain, last.removeprefix("contradiction: ")

    def _clash(self, queens: int, cell: Cell) -> str:
        """Why `cell` can take no queen next to the right queens: which one rules it out, and how."""
        n, puzzle = self.puzzle.n, self.puzzle
        for other in cells_of(queens, n):
            if other[0] == cell[0]:
                return f"row {cell[0] + 1} already has its queen on {cell_name(other)}"
            if other[1] == cell[1]:
                return f"column {cell[1] + 1} already has its queen on {cell_name(other)}"
            if puzzle.k == 1 and puzzle.region_at(other) == puzzle.region_at(cell):
                region = puzzle.region_name(puzzle.region_at(cell))
                return f"{region} already has its queen on {cell_name(other)}"
            if self.board.neighbours[other[0] * n + other[1]] >> (cell[0] * n + cell[1]) & 1:
                return f"it touches the queen on {cell_name(other)}"
        return "the queens already placed rule it out"

    # --- the next step

    def next_step(self, cand: int, queens: int) -> Hint:
        """The simplest deduction that makes progress from (cand, queens): the first rule of the
        ladder that changes anything gives its first step; then a trial; else a guess."""
        for rule in self.rules:
            log: list[Step] = []
            state = rule(self.board, cand, queens, log)
            if state is None:
                raise AssertionError(f"{rule.__name__} found a contradiction on a board without mistakes")
            if state == (cand, queens):
                continue
            step = next(s for s in log if s.kind != StepKind.CONTRADICTION)
            kind = _RENAMED.get(rule.__name__, step.kind)
            return self._hint(step, kind, cand, queens, state)
        return self._trial(cand, queens) or self._guess(cand, queens)

    def _hint(self, step: Step, kind: str, cand: int, queens: int, after: State) -> Hint:
        """The hint for `step`, the first of those a rule logged: what it places and removes is
        the part of the rule's whole effect that lies in the step's cells."""
        n = self.puzzle.n
        cells = mask_of(step.cells, n)
        placed = cells & after[1] & ~queens
        removed = cells & cand & ~after[0] & ~after[1]
        queen = cells_of(placed, n)[0] if placed else None
        concerned = cells | (self._units_named(step.text) & (cand | queens))
        marks = tuple(cells_of(removed, n))
        return Hint(kind, tier_of(kind), step.text, tuple(cells_of(concerned, n)), marks, queen)

    def _units_named(self, text: str) -> int:
        """The cells of the rows, columns and regions a step's words name ("row 4", "rows 1-2, 5",
        "regions B, C"): Step records carry only the cells they change, and a person wants to
        see the units the deduction is about. Only for showing: no deduction depends on it."""
        board, labels = self.board, self.puzzle.labels
        mask = 0
        for word, names in _UNIT_WORDS.findall(text):
            for name in names.split(", "):
                if word == "region":
                    if name in labels:
                        mask |= board.region_masks[labels.index(name)]
                    continue
                low, _, high = name.partition("-")
                if not (low.isdigit() and (high or low).isdigit()):
                    continue
                lines = board.rows if word == "row" else board.cols
                for a in range(int(low), int(high or low) + 1):
                    if 1 <= a <= board.n:
                        mask |= lines[a - 1]
        return mask

    def _trial(self, cand: int, queens: int) -> Hint | None:
        """A queen that leads to a contradiction by propagation. Cells are tried as a person would:
        those of the units with the fewest candidates to spare first (`_by_slack`); among the
        failures of the first group that has any, the one with the shortest chain. Its depth
        counts the deductions to the contradiction, the contradiction included (1: at once)."""
        board, rules = self.board, base_rules(self.board)
        for group in self._by_slack(cand, queens):
            failing = []
            for low in group:
                state = place(board, cand, queens, low)
                if state is None or fixed_point(board, state[0], state[1], rules) is None:
                    failing.append(low)
            if failing:
                return self._trial_hint(cand, queens, failing)
        return None

    def _by_slack(self, cand: int, queens: int) -> list[list[int]]:
        """The candidates (one bit each) grouped by the least slack (candidates beyond the queens
        still needed) of their open units, tightest group first."""
        k, n = self.board.k, self.puzzle.n
        slack_of = [1 << 30] * (n * n)
        for unit in self.board.units:
            need = k - (unit & queens).bit_count()
            live = cand & unit
            if need and live:
                slack = live.bit_count() - need
                for r, c in cells_of(live, n):
                    slack_of[r * n + c] = min(slack_of[r * n + c], slack)
        groups: dict[int, list[int]] = {}
        for r, c in cells_of(cand & ~queens, n):
            groups.setdefault(slack_of[r * n + c], []).append(1 << (r * n + c))
        return [groups[slack] for slack in sorted(groups)]

    def _trial_hint(self, cand: int, queens: int, failing: list[int]) -> Hint:
        """The trial hint for the failing cell whose chain to the contradiction is shortest."""
        best: tuple[int, int, list[str], str] | None = None
        for low in failing:
            chain, why = self._contradiction(place(self.board, cand, queens, low))
            if best is None or len(chain) < best[0]:
                best = (len(chain), low, chain, why or "")
        assert best is not None
        length, low, chain, why = best
        cell = cells_of(low, self.puzzle.n)[0]
        text = f"try a queen on {cell_name(cell)}: {_leads(chain)}{why}; so it holds no queen"
        return Hint(StepKind.TRIAL, tier_of(StepKind.TRIAL), text, (cell,), (cell,), None, depth=length + 1)

    def _guess(self, cand: int, queens: int) -> Hint:
        """No rule and no single trial helps: name the unit with the fewest candidates to try."""
        k, puzzle = self.board.k, self.puzzle
        best, best_slack = 0, 1 << 30
        for u, unit in enumerate(self.board.units):
            need = k - (unit & queens).bit_count()
            slack = (cand & unit).bit_count() - need
            if need and slack < best_slack:
                best, best_slack = u, slack
        options = cand & self.board.units[best]
        text = (f"no deduction the coach knows works from here: {puzzle.unit_name(best)} has "
                f"{options.bit_count()} candidates ({self.board.names(options)}); try each in turn")
        return Hint(StepKind.GUESS, tier_of(StepKind.GUESS), text, tuple(cells_of(options, puzzle.n)))

    def right_guess(self, hint: Hint) -> Cell:
        """The cell of a guess hint's unit that holds a queen in the solution (for grading)."""
        return next(cell for cell in hint.cells if self.answer >> (cell[0] * self.puzzle.n + cell[1]) & 1)


# "row 4", "columns 1-2, 5", "regions B, C": a unit word and the names after it
_UNIT_WORDS = re.compile(r"\b(row|column|region)s? ((?:[^\s,:;]+)(?:, [^\s,:;]+)*)")


def _leads(chain: list[str]) -> str:
    if not chain:
        return "with it, "
    return f"with it, after {len(chain)} forced step{'s' if len(chain) > 1 else ''}, "


# --- the public functions ------------------------------------------------------------------------


def advise(puzzle: Puzzle, position: Position, solution: Solution | None = None) -> Advice:
    """The mistakes on `position`, else the next step (CoachError unless the solution is unique).

    >>> p = Puzzle.from_rows(["ABBB", "ABCC", "DDCC", "DDDD"])
    >>> advise(p, Position.of([(0, 0)])).mistakes[0].text.startswith("the queen on r1c1 cannot be right")
    True
    """
    return Coach(puzzle, solution).advise(position)


def hint_sequence(puzzle: Puzzle, position: Position = Position(), coach: Coach | None = None) -> list[Hint]:
    """The hints one after another from `position` (which must have no mistakes) until solved; a
    guess is made by placing the right queen in the unit it names."""
    coach = coach or Coach(puzzle)
    cand, queens = coach.state_of(position)
    hints = []
    n = puzzle.n
    while queens.bit_count() < coach.board.total:
        hint = coach.next_step(cand, queens)
        hints.append(hint)
        placed = hint.queen if hint.tier is not Tier.GUESS else coach.right_guess(hint)
        before = cand
        cand &= ~mask_of(hint.marks, n)
        if placed is not None:
            state = place(coach.board, cand, queens, mask_of([placed], n))
            assert state is not None, f"hint {hint.text!r} placed a queen that breaks the rules"
            cand, queens = state
        if cand == before:
            raise AssertionError(f"hint {hint.text!r} changes nothing on the board")
    return hints


def grade(puzzle: Puzzle, solution: Solution | None = None) -> Grade:
    """The puzzle's grade: the hints from the empty board (given queens placed) until solved.

    >>> grade(Puzzle.from_rows(["ABBB", "ABCC", "DDCC", "DDDD"])).tier.title
    'singles and neighbours'
    """
    hints = hint_sequence(puzzle, coach=Coach(puzzle, solution))
    tiers: dict[Tier, int] = {}
    for hint in hints:
        tiers[hint.tier] = tiers.get(hint.tier, 0) + 1
    return Grade(
        tier=max(tiers, default=Tier.SINGLES),
        steps=len(hints),
        trial_depth=max((h.depth for h in hints if h.tier is Tier.TRIAL), default=0),
        guesses=tiers.get(Tier.GUESS, 0),
        tiers=tiers,
    )
