"""The words of explanations: every Step the deduction rules log is worded here, so the rule
modules hold only the deductions. Nothing here runs in the hot path: the rules call these only
when someone keeps a log.
"""

from __future__ import annotations

from collections.abc import Callable

from queens_autosolve.solver.board import Board, CutGroup, State, Step, StepKind, bits

Describe = Callable[[], str]  # words for a set of cells, built only when someone reads them


def contradiction(why: str, log: list[Step] | None) -> State | None:
    """Log the contradiction `why` (when logging) and return None, the rules' word for it (typed
    as a rule's result, so a rule can return it)."""
    if log is not None:
        log.append(Step(f"contradiction: {why}", kind=StepKind.CONTRADICTION))
    return None


def too_few_text(board: Board, u: int, live: int, need: int) -> str:
    """Why unit u, with candidates `live`, cannot take the `need` queens it still needs."""
    name = board.puzzle.unit_name(u)
    if not live:
        return f"{name} has no candidates left"
    return f"{name} needs {need} more queens but has {live.bit_count()} candidate(s)"


def _them(mask: int) -> str:
    return "them" if mask & (mask - 1) else "it"


# --- one step per rule --------------------------------------------------------------------------


def single_step(board: Board, u: int, live: int, need: int) -> Step:
    name = board.puzzle.unit_name(u)
    if need == 1:
        text = f"{name} has one candidate left: {board.names(live)}"
    else:
        text = f"{name} needs {need} more queens and has exactly {need} candidates: {board.names(live)}"
    return Step(text, board.cells(live), kind=StepKind.SINGLE)


def attack_step(board: Board, u: int, mask: int) -> Step:
    effect = "take every candidate of" if board.k == 1 else "leave too few candidates in"
    return Step(
        f"a queen on {board.names(mask)} would {effect} {board.puzzle.unit_name(u)}: remove {_them(mask)}",
        board.cells(mask),
        kind=StepKind.ATTACK,
    )


def squeeze_step(board: Board, u: int, mask: int) -> Step:
    return Step(
        f"a queen on {board.names(mask)} would leave {board.puzzle.unit_name(u)} room for too few "
        f"queens: remove {_them(mask)}",
        board.cells(mask),
        kind=StepKind.ATTACK,
    )


def placements_step(board: Board, u: int, forced: int, drop: int) -> Step:
    """What the placements of unit u's remaining queens settle (place_rules.settle_placements)."""
    unit = board.puzzle.unit_name(u)
    text = f"every way {unit} can still take its queens agrees: {_holds(board, forced, drop)}"
    return Step(text, board.cells(forced | drop), kind=StepKind.ATTACK)


def unsupported_step(board: Board, drop: int) -> Step:
    """Cells whose queen would force one where none can go (place_rules.drop_unsupported)."""
    text = f"a queen on each of these forces one on a cell that can hold none: remove {board.names(drop)}"
    return Step(text, board.cells(drop), kind=StepKind.ATTACK)


def confine_step(board: Board, inner: str, verb: str, outer: str, drop: int) -> Step:
    """`inner` units (named) confined to `outer` ones: `drop` goes."""
    text = f"{inner} {verb} {outer}: remove {board.names(drop)}"
    return Step(text, board.cells(drop), kind=StepKind.CONFINE)


def group_done_step(board: Board, about: str, live: int) -> Step:
    """A group of cells that holds k queens has them all: its candidates `live` go."""
    text = f"{about} hold exactly {board.k} queens, all placed: remove {board.names(live)}"
    return Step(text, board.cells(live), kind=StepKind.CONFINE)


def group_empty_step(board: Board, about: str, live: int) -> Step:
    """A group of cells that holds no queen (solver/cut_rules.py): its candidates `live` go."""
    text = f"{about} hold no queens: remove {board.names(live)}"
    return Step(text, board.cells(live), kind=StepKind.CONFINE)


def cut_side_text(board: Board, group: CutGroup) -> str:
    """Words for a group of cut_rules (its cells, queens, rows or columns, first and last line,
    regions): "regions A, B in rows 1-5"."""
    _, _, horizontal, first, last, regions = group
    word = "rows" if horizontal else "columns"
    if not regions:
        return f"the cells of split regions in {word} that whole regions fill"
    lines = lines_text(word, ((1 << (last + 1)) - 1) ^ ((1 << first) - 1))
    return f"{regions_text(board, bits(regions))} in {lines}"


def group_forced_step(board: Board, about: str, live: int) -> Step:
    """A group of cells that holds k queens has as many candidates left as it needs."""
    text = f"{about} hold exactly {board.k} queens: {board.names(live)} must hold them"
    return Step(text, board.cells(live), kind=StepKind.CONFINE)


def group_crowded_step(board: Board, about: str, crowded: int) -> Step:
    """A queen on `crowded` would leave a group that holds k queens too few candidates."""
    text = (
        f"{about} hold exactly {board.k} queens: a queen on {board.names(crowded)} would leave "
        "too few candidates there"
    )
    return Step(text, board.cells(crowded), kind=StepKind.CONFINE)


def blocks_step(board: Board, about: str, count: int, forced: int, drop: int) -> Step:
    """`count` blocks take one queen each: `forced` are the last cells of theirs, `drop` would
    take a whole block."""
    done = _holds(board, forced, drop,
                  forced_as=("is the last cell of its block", "are the last cell of its block"),
                  drop_why="a queen there would touch a whole block")
    return Step(
        f"{about} in {count} separate 2x2 blocks, one in each: {done}",
        board.cells(forced | drop),
        kind=StepKind.BLOCK,
    )


def line_step(board: Board, name: str, forced: int, drop: int) -> Step:
    """Line `name` has room for exactly k queens apart: `forced` hold queens, `drop` go."""
    return Step(
        f"{name} has room for exactly {board.k} queens not side by side: {_holds(board, forced, drop)}",
        board.cells(forced | drop),
        kind=StepKind.LINE,
    )


def trial_step(board: Board, units: list[int], drop: int, forced: int) -> Step:
    names = ", ".join(board.puzzle.unit_name(u) for u in units)
    done = _holds(board, forced, drop, forced_as=("holds a queen whichever way", "hold queens whichever way"),
                  drop_why="no trial leaves a queen there")
    return Step(
        f"try a queen on each candidate of {names} in turn and propagate: {done}",
        board.cells(drop | forced),
        kind=StepKind.TRIAL,
    )


# --- names of units ---------------------------------------------------------------------------


def line_name(a: int, horizontal: bool) -> str:
    """The name of line a (0-based): "row 3" or "column 3"."""
    return f"{'row' if horizontal else 'column'} {a + 1}"


def lines_text(word: str, span: int) -> str:
    """Lines by 1-based number, runs joined: "rows 1-2", "columns 1, 3", "row 4"; `word` is
    "rows" or "columns"."""
    numbers = [i + 1 for i in bits(span)]
    runs: list[list[int]] = []
    for x in numbers:
        if runs and runs[-1][-1] == x - 1:
            runs[-1].append(x)
        else:
            runs.append([x])
    text = ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else f"{run[0]}" for run in runs)
    return f"{word if len(numbers) > 1 else word[:-1]} {text}"


def regions_text(board: Board, numbers: list[int]) -> str:
    """The regions numbered `numbers` as a person names them: "region B", "regions A, C", or
    by colour "the purple and green regions"."""
    return board.puzzle.regions_name(numbers)


def band_text(a: int, horizontal: bool) -> str:
    """The band of lines a and a+1 (0-based): "rows 3-4" or "columns 3-4"."""
    return f"{'rows' if horizontal else 'columns'} {a + 1}-{a + 2}"


def _holds(board: Board, forced: int, drop: int, *,
           forced_as: tuple[str, str] = ("must hold a queen", "must hold queens"), drop_why: str = "") -> str:
    """'A1 must hold a queen; remove B2, C3': what a rule settles, in words. `forced_as` says it of
    one forced cell, then of several; `drop_why`, when given, says why the removed cells go."""
    what = []
    if forced:
        one, several = forced_as
        what.append(f"{board.names(forced)} {several if forced & (forced - 1) else one}")
    if drop:
        what.append(f"remove {board.names(drop)}" + (f": {drop_why}" if drop_why else ""))
    return "; ".join(what)
