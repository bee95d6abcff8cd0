"""Search: propagate to a fixed point, then branch on the unit with the fewest candidates.

The whole solver is `propagate` (solver/propagate.py) and `_explore` here: try each candidate
of the tightest unit as that unit's next queen, recurse, and rule the candidate out once its
branch is done, so branches never overlap and counting needs no de-duplication. Counting stops
as soon as `limit` answers are found (2 is enough to prove an answer unique).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from solver.propagate import Board, Step, board_of, place, propagate
from solver.puzzle import Puzzle, Solution, cell_name, cells_of, mask_of


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the first answer (or None), how many answers up to the limit, and
    how many nodes (propagate calls) it took."""

    solution: Solution | None
    count: int
    nodes: int


def solve(puzzle: Puzzle) -> Solution | None:
    """One answer to `puzzle`, or None when it has none.

    >>> solve(Puzzle.from_rows(["ABBB", "ABCC", "DDCC", "DDDD"])).queens
    ((0, 2), (1, 0), (2, 3), (3, 1))
    >>> solve(Puzzle.from_rows(["AB", "CD"])) is None
    True
    """
    return search(puzzle, limit=1).solution


def count_solutions(puzzle: Puzzle, limit: int = 2) -> int:
    """How many answers `puzzle` has, counting no further than `limit`."""
    return search(puzzle, limit=limit).count


def search(puzzle: Puzzle, limit: int = 2) -> SearchResult:
    """Find up to `limit` answers; the result holds the first, the count and the node count.

    `puzzle` must be valid (`Puzzle.validate`, which `solver.formats` runs on everything it reads).
    """
    board = board_of(puzzle)
    tally = _Tally(limit)
    start = _start(board)
    if start is not None and limit > 0:
        _explore(board, start[0], start[1], tally, None, 0)
    solution = Solution.of(cells_of(tally.first, board.n)) if tally.count else None
    return SearchResult(solution, tally.count, tally.nodes)


def search_board(
    board: Board, cand: int, queens: int = 0, *, limit: int = 1, skip: int = -1, budget: int | None = None
) -> tuple[int, bool]:
    """The lower-level search the generator uses on half-built maps (see `board_of_regions`).

    Starts from candidates `cand` with `queens` placed, and looks for up to `limit` answers,
    not counting the answer whose queen mask is `skip`. Returns the first answer's queen mask
    (0: none found) and whether the search finished; it stops unfinished after `budget` nodes.
    """
    tally = _Tally(limit, skip, budget)
    start = place(board, cand, 0, queens)
    if start is not None and limit > 0:
        _explore(board, start[0], start[1], tally, None, 0)
    finished = tally.count >= limit or tally.nodes < tally.budget
    return (tally.first if tally.count else 0), finished


def explain(puzzle: Puzzle) -> list[Step]:
    """The steps to the first answer as a person would take them: deductions, guesses (with the
    alternatives counted) and backtracking when a guess fails.

    >>> [step.text for step in explain(Puzzle.from_rows(["AB", "CD"]))][-2:]
    ['contradiction: region B has no candidates left', 'no solution']
    """
    board = board_of(puzzle)
    log: list[Step] = []
    if puzzle.given:
        names = ", ".join(map(cell_name, puzzle.given))
        log.append(Step(f"given queens: {names}", puzzle.given, kind="given"))
    tally = _Tally(1)
    start = _start(board)
    if start is None:
        log.append(Step("contradiction: the given queens break the rules", kind="contradiction"))
    else:
        _explore(board, start[0], start[1], tally, log, 0)
    if not tally.count:
        log.append(Step("no solution", kind="solved"))
    return log


class _Tally:
    """Counters shared by every node of one search."""

    __slots__ = ("limit", "skip", "budget", "count", "nodes", "first")

    def __init__(self, limit: int, skip: int = -1, budget: int | None = None) -> None:
        self.limit = limit
        self.skip = skip  # an answer (queen mask) not to count
        self.budget = budget if budget is not None else 1 << 62  # nodes allowed
        self.count = 0
        self.nodes = 0
        self.first = 0


def _start(board: Board) -> tuple[int, int] | None:
    """All cells candidates, then the given queens placed."""
    full = (1 << board.n * board.n) - 1
    return place(board, full, 0, mask_of(board.puzzle.given, board.n))


def _explore(board: Board, cand: int, queens: int, tally: _Tally, log: list[Step] | None, depth: int) -> None:
    if tally.nodes >= tally.budget:
        return
    tally.nodes += 1
    mark = len(log) if log is not None else 0
    state = propagate(board, cand, queens, log)
    if log is not None and depth:
        log[mark:] = [replace(step, depth=depth) for step in log[mark:]]
    if state is None:
        return
    cand, queens = state
    if queens.bit_count() == board.total:
        if queens == tally.skip:
            return
        tally.count += 1
        if tally.count == 1:
            tally.first = queens
        if log is not None:
            log.append(Step("solved", board.cells(queens), kind="solved", depth=depth))
        return
    u, need = _tightest_unit(board, cand, queens)
    options = cand & board.units[u]
    for low in _branch_order(board, cand, options):
        if options.bit_count() < need:
            break
        if log is not None:
            log.append(_guess_step(board, u, low, options, need, depth))
        child = place(board, cand, queens, low)
        if child is not None:
            _explore(board, child[0], child[1], tally, log, depth + 1)
        if tally.count >= tally.limit or tally.nodes >= tally.budget:
            return
        if log is not None:
            log.append(
                Step(
                    f"backtrack: {cell_name(board.cells(low)[0])} holds no queen",
                    board.cells(low), kind="backtrack", depth=depth,
                )
            )
        cand ^= low
        options ^= low


def _branch_order(board: Board, cand: int, options: int) -> list[int]:
    """The cells of `options` (one bit each) in the order to try them. For k>1, the cells that
    take the most candidates first: measured, that gives about 5% fewer nodes, as the later
    siblings, with those cells ruled out, are the tighter for it. For k=1, reading order."""
    cells = []
    while options:
        low = options & -options
        cells.append(low)
        options ^= low
    if board.k > 1:
        neighbours = board.neighbours
        cells.sort(key=lambda low: ((neighbours[low.bit_length() - 1] & cand).bit_count(), low), reverse=True)
    return cells


def _tightest_unit(board: Board, cand: int, queens: int) -> tuple[int, int]:
    """The open unit with the fewest candidates to spare (candidates minus queens still needed),
    and its need; the fewer the branches, the smaller the tree."""
    k = board.k
    best, best_need, best_slack = -1, 0, 1 << 30
    for u, unit in enumerate(board.units):
        need = k - (unit & queens).bit_count()
        if need:
            slack = (cand & unit).bit_count() - need
            if slack < best_slack:
                best, best_need, best_slack = u, need, slack
                if slack <= 1:
                    break
    return best, best_need


def _guess_step(board: Board, u: int, low: int, options: int, need: int, depth: int) -> Step:
    name = cell_name(board.cells(low)[0])
    count = options.bit_count()
    why = f"{count} candidate{'s' if count > 1 else ''} in {board.puzzle.unit_name(u)}"
    if board.k > 1:
        why += f", which needs {need} more"
    return Step(f"guess: {name} ({why})", board.cells(low), guess=True, kind="guess", depth=depth)
