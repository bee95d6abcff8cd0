"""The peers our solver is measured against (by `queens-autosolve bench` and
benchmarks/starbattle.py): other solvers, run in this process on the same puzzles, each counting
answers up to two so that, like ours, it proves an answer unique.

- CP-SAT (OR-Tools, one worker) and CaDiCaL (a SAT solver, through python-sat) solve one model
  of the rules (`encode`). Both come with the optional extra: the optional extra `bench` (`install_command`).
- Propagation only (`propagation`): forward checking and singles, then plain
  backtracking; needs nothing extra.

The model: a Boolean per cell; each row, column and region holds exactly k; each 2x2 square at
most one (two queens touch exactly when they share one), and under the diagonal rule each
diagonal at most one too. A second answer is looked for by forbidding the first and solving again.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from queens_autosolve.bench import propagation
from queens_autosolve.solver.puzzle import Puzzle, Solution

LIMIT = 2  # counting to 2 proves an answer unique


def install_command() -> str:
    """How to add the optional extra `bench`, for the way this copy was installed."""
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file():  # a source checkout, installed editable
        return f"pip install -e '{checkout}[bench]'"
    if "pipx" in Path(sys.prefix).parts:
        return "pipx inject queens-autosolve ortools python-sat"
    return "pip install 'queens-autosolve[bench]'"


INSTALL = install_command()


@dataclass(frozen=True)
class Answer:
    """A peer's result: answers found (up to LIMIT), the first, and search nodes where the peer
    has a notion of them (propagation-only: 1 when propagation alone settled the puzzle; CaDiCaL:
    its conflicts, the work it learns from, the same on every run of the same puzzle)."""

    count: int
    solution: Solution | None
    nodes: int = 0


@dataclass(frozen=True)
class Peer:
    name: str  # short, for table columns
    title: str  # what it is, for the legend
    count: Callable[[Puzzle], Answer]
    needs: str = ""  # the module it imports (from the `bench` extra); "" for none
    package: str = ""  # the pip package that brings that module
    nodes: bool = False  # its answers count nodes (1: settled without a guess)


# --- the model --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Encoding:
    """The rules of one puzzle over cell numbers r*n + c."""

    n: int
    k: int
    units: tuple[tuple[int, ...], ...]  # each holds exactly k queens
    at_most_one: tuple[tuple[int, ...], ...]  # no two queens in one group
    given: tuple[int, ...]  # cells that hold a queen

    def solution(self, cells: Sequence[int]) -> Solution:
        """The answer whose queens are on `cells` (cell numbers)."""
        return Solution.of(divmod(i, self.n) for i in cells)


def encode(puzzle: Puzzle) -> Encoding:
    n = puzzle.n
    units = tuple(tuple(_cells(mask)) for mask in puzzle.units)
    groups = list(_squares(n))
    if puzzle.rule == "diagonal":
        groups += _diagonals(n)
    given = tuple(r * n + c for r, c in puzzle.given)
    return Encoding(n, puzzle.k, units, tuple(groups), given)


def _cells(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _squares(n: int) -> Iterator[tuple[int, ...]]:
    """Every 2x2 square: two queens touch exactly when they share one."""
    for r in range(n - 1):
        for c in range(n - 1):
            i = r * n + c
            yield i, i + 1, i + n, i + n + 1


def _diagonals(n: int) -> list[tuple[int, ...]]:
    """Every diagonal and anti-diagonal of two cells or more."""
    lines: dict[tuple[str, int], list[int]] = {}
    for r in range(n):
        for c in range(n):
            lines.setdefault(("down", r - c), []).append(r * n + c)
            lines.setdefault(("up", r + c), []).append(r * n + c)
    return [tuple(cells) for cells in lines.values() if len(cells) > 1]


# --- the peers --------------------------------------------------------------------------------


def cp_sat(puzzle: Puzzle) -> Answer:
    """CP-SAT with one worker: solve, forbid the answer, solve again (INFEASIBLE proves it unique)."""
    from ortools.sat.python import cp_model

    rules = encode(puzzle)
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"x{i}") for i in range(rules.n ** 2)]
    for unit in rules.units:
        model.add(sum(x[i] for i in unit) == rules.k)
    for group in rules.at_most_one:
        model.add_at_most_one(x[i] for i in group)
    for i in rules.given:
        model.add(x[i] == 1)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.catch_sigint_signal = False  # Ctrl-C is the CLI's: "interrupted", 130
    count, first = 0, None
    while count < LIMIT and solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        stars = [i for i in range(rules.n ** 2) if solver.value(x[i])]
        first = first or stars
        count += 1
        model.add_bool_or(x[i].Not() for i in stars)
    return Answer(count, rules.solution(first) if first else None)


def sat(puzzle: Puzzle) -> Answer:
    """CaDiCaL 1.9.5 on a CNF of the model: exactly k per unit (totalizer), at most one per group
    (pairwise); solve, add the clause forbidding the answer, solve again. Its nodes: conflicts."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import CNF, IDPool
    from pysat.solvers import Solver as SatSolver

    rules = encode(puzzle)
    cells = rules.n ** 2
    pool = IDPool(start_from=cells + 1)
    cnf = CNF()
    for unit in rules.units:
        literals = [i + 1 for i in unit]
        cnf.extend(CardEnc.equals(literals, bound=rules.k, vpool=pool, encoding=EncType.totalizer))
    for group in rules.at_most_one:
        cnf.extend([[-(a + 1), -(b + 1)] for j, a in enumerate(group) for b in group[j + 1:]])
    for i in rules.given:
        cnf.append([i + 1])
    count, first = 0, None
    with SatSolver(name="cadical195", bootstrap_with=cnf.clauses) as oracle:
        while count < LIMIT and oracle.solve():
            stars = [v - 1 for v in oracle.get_model()[:cells] if v > 0]
            first = first or stars
            count += 1
            oracle.add_clause([-(i + 1) for i in stars])
        conflicts = oracle.accum_stats().get("conflicts", 0)
    return Answer(count, rules.solution(first) if first else None, conflicts)


def propagation_only(puzzle: Puzzle) -> Answer:
    count, first, nodes = propagation.count_solutions(puzzle, LIMIT)
    return Answer(count, first, nodes)


PEERS: tuple[Peer, ...] = (
    Peer("CP-SAT", "OR-Tools CP-SAT, 1 worker", cp_sat, "ortools.sat.python.cp_model", "ortools"),
    Peer("SAT", "CaDiCaL 1.9.5 (python-sat), totalizer encoding", sat, "pysat.solvers", "python-sat"),
    Peer("propagation", "forward checking and singles, then plain row-by-row backtracking",
         propagation_only, nodes=True),
)


def available(peers: Sequence[Peer] = PEERS) -> tuple[list[Peer], list[Peer]]:
    """The peers whose packages import, and those whose do not."""
    ready, missing = [], []
    for peer in peers:
        try:
            if peer.needs:
                importlib.import_module(peer.needs)
        except ImportError:
            missing.append(peer)
        else:
            ready.append(peer)
    return ready, missing


def warm_up(peers: Sequence[Peer]) -> None:
    """Run each peer once on a 4x4 board, untimed: the first call of a solver library pays for
    loading and setting itself up, which is no part of solving a puzzle."""
    tiny = Puzzle.from_rows(["ABBB", "ABCC", "DDCC", "DDDD"])
    for peer in peers:
        peer.count(tiny)


def skipped_text(missing: Sequence[Peer]) -> str:
    """The one line saying which peers were left out, and how to get them."""
    names = ", ".join(f"{p.name} (needs {p.package})" for p in missing)
    return (f"peers skipped, the optional extra `bench` is not installed: {names}; "
            f"to add them: {INSTALL}")
