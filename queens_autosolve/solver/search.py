"""Search: propagate to a fixed point, then branch on the unit with the fewest candidates.

The whole solver is `propagate` (solver/propagate.py) and `_explore` here: try each candidate
of the tightest unit as that unit's next queen, recurse, and rule the candidate out once its
branch is done, so branches never overlap and counting needs no de-duplication. For k >= 4 a
2x2 block of two lines known to hold exactly one queen is branched on instead when it has fewer
candidates than the unit has branches (solver/branching.py). Counting stops as soon as `limit`
answers are found (2 is enough to prove an answer unique).

What one search learns as it goes: how often each unit held a contradiction (`_Tally.weights`),
which breaks ties between equally tight units; and at each node what the rules' last calls left
(`Memo.last_calls`), which each branch resumes from, so the rules look only at what it changed.

For k >= 4 a search that does not finish within a few nodes starts again from a root probed
cell by cell (`probe`: a candidate whose queen propagates to a contradiction goes): on the hard
17x17 boards that takes the worst cases' nodes down by a third to a fiftieth. What the probes
that held saw is kept as well: two cells one of whose queens takes the other can never both hold
queens, whichever was probed, so each joins the other's kill mask for the rest of the search
(`_learn_conflicts`), and for the probes after it in the same pass; and a queen a probe placed
is one every answer with the probed queen has (`Board.wanted`, place_rules.drop_unsupported).
When that search still grows big, each root branch is probed in turn too.

The rules every node runs are a `RuleSet` (solver/propagate.py), passed in; the figures behind
the search's choices are in docs/solver.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from queens_autosolve.solver.board import bits
from queens_autosolve.solver.branching import block_branch
from queens_autosolve.solver.propagate import (
    DEFAULT_RULES,
    Board,
    RuleSet,
    State,
    Step,
    StepKind,
    board_of,
    fixed_point,
    place,
    propagate,
)
from queens_autosolve.solver.puzzle import Puzzle, Solution, cell_name, cells_of, mask_of
from queens_autosolve.solver.wording import band_text


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


def search(puzzle: Puzzle, limit: int = 2, *, rules: RuleSet = DEFAULT_RULES) -> SearchResult:
    """Find up to `limit` answers; the result holds the first, the count and the node count.
    `rules`: the deductions propagation runs (a benchmark's ablation passes others).

    `puzzle` must be valid (`Puzzle.validate`, which `solver.formats` runs on everything it reads).
    """
    board = board_of(puzzle)
    probing = board.k >= PROBE_FROM_K
    budget = PROBE_AFTER if probing else None
    tally = _Tally(len(board.units), limit, budget=budget, trial_depth=TRIAL_DEPTH, rules=rules)
    start = _start(board)
    if start is not None and limit > 0:
        _explore(board, start[0], start[1], tally, None, 0)
        if probing and tally.count < limit and tally.nodes >= tally.budget:
            tally = _search_probed(board, start, limit, tally.nodes, rules)
    solution = Solution.of(cells_of(tally.first, board.n)) if tally.count else None
    return SearchResult(solution, tally.count, tally.nodes)


def _search_probed(board: Board, start: State, limit: int, spent: int, rules: RuleSet) -> _Tally:
    """The search again from the start, its root first propagated and then probed (`probe`);
    the tally counts the `spent` nodes of the search that gave up, and a node a probe."""
    tally = _Tally(len(board.units), limit, trial_depth=TRIAL_DEPTH, rules=rules)
    tally.probe_branches = True
    tally.nodes = spent + 1
    board.memo.resume((None, None, None, None, None, None))  # the rules look at every unit again
    root = propagate(board, start[0], start[1], rules=rules)
    if root is not None:
        conflicts = list(board.kill)
        wanted = [0] * len(conflicts)
        root, probes = probe(board, root[0], root[1], rules, conflicts, wanted)
        tally.nodes += probes
        wanting = sum(1 << i for i, cells in enumerate(wanted) if cells)
        # its memo too: what that holds stays sound
        board = replace(board, kill=tuple(conflicts), wanted=tuple(wanted), wanting=wanting)
        tally.rules = rules.after_probing()
    if root is not None:
        _explore(board, root[0], root[1], tally, None, 0)
    return tally


def probe(
    board: Board, cand: int, queens: int, rules: RuleSet = DEFAULT_RULES, conflicts: list[int] | None = None,
    wanted: list[int] | None = None,
) -> tuple[State | None, int]:
    """Failed-literal probing: put a queen on each candidate in turn and propagate; a candidate
    whose queen leads to a contradiction can hold none, so it goes (and the state is propagated
    again before the next probe). One pass over the candidates; returns the state (None: a
    contradiction) and how many probes it took. With `conflicts` (kill masks, one a cell, as
    Board.kill), what each probe that held took joins them (`_learn_conflicts`), and the probes
    after it place queens with them; with `wanted` (a mask a cell, as Board.wanted), each queen a
    probe that held placed lists the probed cell. Pass them only for a state every answer lies
    within (the root), as what is learned holds everywhere."""
    used = rules.for_k(board.k, search=True)
    probes = 0
    calls = board.memo.last_calls()  # each probe starts the rules from the probed state
    for low in _cells(cand):
        if not cand & low:
            continue
        probes += 1
        board.memo.resume(calls)
        state = place(board, cand, queens, low)
        if state is not None:
            state = fixed_point(board, state[0], state[1], used)
        if state is not None:
            if conflicts is not None:
                _learn_conflicts(conflicts, low, cand & ~(state[0] | state[1]))
                board = replace(board, kill=tuple(conflicts))  # the later probes see more
            if wanted is not None:
                for j in bits(state[1] & ~queens & ~low):
                    wanted[j] |= low
            continue
        board.memo.resume(calls)
        state = propagate(board, cand & ~low, queens, rules=rules)
        if state is None:
            return None, probes
        cand, queens = state
        calls = board.memo.last_calls()
    board.memo.resume(calls)
    return (cand, queens), probes


def _learn_conflicts(conflicts: list[int], low: int, taken: int) -> None:
    """A queen on cell `low` leaves none on the cells of `taken`: no answer has a queen on `low`
    and one on any of them, so each goes into the other's kill mask (the other way round is what
    propagation from those cells may not see)."""
    conflicts[low.bit_length() - 1] |= taken
    for j in bits(taken):
        conflicts[j] |= low


def _cells(mask: int) -> list[int]:
    """The cells of `mask`, one bit each, lowest first."""
    return [1 << i for i in bits(mask)]


def search_board(
    board: Board, cand: int, queens: int = 0, *, limit: int = 1, skip: int = -1, budget: int | None = None
) -> tuple[int, bool]:
    """The lower-level search the generator uses on half-built maps (see `board_of_regions`).

    Starts from candidates `cand` with `queens` placed, and looks for up to `limit` answers,
    not counting the answer whose queen mask is `skip`. Returns the first answer's queen mask
    (0: none found) and whether the search finished; it stops unfinished after `budget` nodes.
    """
    tally = _Tally(len(board.units), limit, skip, budget)
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
        log.append(Step(f"given queens: {names}", puzzle.given, kind=StepKind.GIVEN))
    tally = _Tally(len(board.units), 1, trial_depth=EXPLAIN_TRIAL_DEPTH)
    start = _start(board)
    if start is None:
        log.append(Step("contradiction: the given queens break the rules", kind=StepKind.CONTRADICTION))
    else:
        _explore(board, start[0], start[1], tally, log, 0)
    if not tally.count:
        log.append(Step("no solution", kind=StepKind.SOLVED))
    return log


# Depths at which propagation runs `trial` (k>1): the search, nowhere (it costs more time than
# the nodes it saves); `explain`, at the root (one step a reader can check replaces a guess).
TRIAL_DEPTH = -1
EXPLAIN_TRIAL_DEPTH = 0

# Failed-literal probing at the root (`probe`) from k = PROBE_FROM_K (below, it saves no time), once
# the search has not finished within PROBE_AFTER nodes (small trees do not pay for ~280 probes).
PROBE_FROM_K = 4
PROBE_AFTER = 20
# A probed search that has grown to PROBE_BRANCHES_AFTER nodes (probes included) probes each root
# branch it enters from then on: trees that big pay for it, the smaller ones never start it.
PROBE_BRANCHES_AFTER = 500


class _Tally:
    """Counters shared by every node of one search."""

    __slots__ = (
        "budget",
        "count",
        "first",
        "limit",
        "nodes",
        "probe_branches",
        "rules",
        "skip",
        "trial_depth",
        "weights",
    )

    def __init__(
        self, units: int, limit: int, skip: int = -1, budget: int | None = None, trial_depth: int = -1,
        rules: RuleSet = DEFAULT_RULES,
    ) -> None:
        self.limit = limit
        self.skip = skip  # an answer (queen mask) not to count
        self.budget = budget if budget is not None else 1 << 62  # nodes allowed
        self.count = 0
        self.nodes = 0
        self.first = 0
        self.trial_depth = trial_depth  # nodes this deep or shallower run `trial`
        # weights[u]: how many contradictions the search met in unit u (see _weigh_failure)
        self.weights = [0] * units
        self.rules = rules  # what propagation runs at every node
        self.probe_branches = False  # probe the root's branches once the tree is big (see _explore)


def _start(board: Board) -> tuple[int, int] | None:
    """All cells candidates, then the given queens placed."""
    full = (1 << board.n * board.n) - 1
    return place(board, full, 0, mask_of(board.puzzle.given, board.n))


def _explore(board: Board, cand: int, queens: int, tally: _Tally, log: list[Step] | None, depth: int) -> None:
    if tally.nodes >= tally.budget:
        return
    tally.nodes += 1
    mark = len(log) if log is not None else 0
    state = propagate(board, cand, queens, log, trials=depth <= tally.trial_depth, rules=tally.rules)
    if log is not None and depth:
        log[mark:] = [replace(step, depth=depth) for step in log[mark:]]
    if state is None:
        _weigh_failure(board, tally.weights)
        return
    cand, queens = state
    if depth == 1 and tally.probe_branches:
        state = _probed_branch(board, cand, queens, tally)
        if state is None:
            _weigh_failure(board, tally.weights)
            return
        cand, queens = state
    if queens.bit_count() == board.total:
        if queens == tally.skip:
            return
        tally.count += 1
        if tally.count == 1:
            tally.first = queens
        if log is not None:
            log.append(Step("solved", board.cells(queens), kind=StepKind.SOLVED, depth=depth))
        return
    u, need = _tightest_unit(board, cand, queens, tally.weights)
    options = cand & board.units[u]
    block, line = block_branch(board, cand, queens, options.bit_count() - need + 1)
    if block:
        u, need, options = line, 1, block
    calls = board.memo.last_calls()  # each branch starts the rules from here (Memo.resume)
    for low in _branch_order(board, cand, options):
        if options.bit_count() < need:
            break
        board.memo.resume(calls)
        if log is not None:
            log.append(_guess_step(board, u, low, options, need, depth, block=bool(block)))
        child = place(board, cand, queens, low)
        if child is not None:
            _explore(board, child[0], child[1], tally, log, depth + 1)
        if tally.count >= tally.limit or tally.nodes >= tally.budget:
            return
        if log is not None:
            log.append(
                Step(
                    f"backtrack: {cell_name(board.cells(low)[0])} holds no queen",
                    board.cells(low), kind=StepKind.BACKTRACK, depth=depth,
                )
            )
        cand ^= low
        options ^= low


def _probed_branch(board: Board, cand: int, queens: int, tally: _Tally) -> State | None:
    """A root branch's state, probed (`probe`) once the search has PROBE_BRANCHES_AFTER nodes
    (the probes count as nodes); None when probing finds a contradiction."""
    if tally.nodes < PROBE_BRANCHES_AFTER or queens.bit_count() == board.total:
        return cand, queens
    state, probes = probe(board, cand, queens, tally.rules)
    tally.nodes += probes
    return state


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


def _tightest_unit(board: Board, cand: int, queens: int, weights: list[int]) -> tuple[int, int]:
    """The open unit with the fewest candidates to spare (candidates minus queens still needed),
    and its need; the fewer the branches, the smaller the tree. On a tie, the unit the search
    has met the most contradictions in (`weights`, see _weigh_failure), then the first."""
    # Every other choice measured (ratio, binomial, dom/wdeg...) took more nodes on some set.
    k = board.k
    best, best_need, best_slack, best_weight = -1, 0, 1 << 30, -1
    for u, unit in enumerate(board.units):
        need = k - (unit & queens).bit_count()
        if need:
            slack = (cand & unit).bit_count() - need
            if slack < best_slack or (slack == best_slack and weights[u] > best_weight):
                best, best_need, best_slack, best_weight = u, need, slack, weights[u]
    return best, best_need


def _weigh_failure(board: Board, weights: list[int]) -> None:
    """A node failed: count the contradiction against the units it was found in (the rules note
    them in Memo.blame when they know them), so _tightest_unit prefers those units on ties.
    Not for k = 1: those searches take a few nodes, and keeping their order keeps the answer a
    search finds first where a level has several (community level125 would change)."""
    blame = board.memo.blame
    board.memo.blame = 0
    if board.k == 1:
        return
    for u in bits(blame):
        weights[u] += 1


def _guess_step(
    board: Board, u: int, low: int, options: int, need: int, depth: int, *, block: bool = False
) -> Step:
    name = cell_name(board.cells(low)[0])
    count = options.bit_count()
    if block:  # a 2x2 block of the lines u and u+1
        horizontal = u < board.n
        where = band_text(u if horizontal else u - board.n, horizontal)
        why = f"{count} candidate{'s' if count > 1 else ''} in a 2x2 block of {where}"
        why += ", which have room for their queens only one to a block"
    else:
        why = f"{count} candidate{'s' if count > 1 else ''} in {board.puzzle.unit_name(u)}"
        if board.k > 1:
            why += f", which needs {need} more"
    return Step(f"guess: {name} ({why})", board.cells(low), guess=True, kind=StepKind.GUESS, depth=depth)
