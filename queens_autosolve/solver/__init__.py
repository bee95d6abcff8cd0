"""The Queens / Star Battle solver: the puzzle model, text formats and the search.

>>> from queens_autosolve.solver import Puzzle, solve
>>> solve(Puzzle.from_rows(["ABBB", "ABCC", "DDCC", "DDDD"])).grid(4)
['..Q.', 'Q...', '...Q', '.Q..']
"""

from queens_autosolve.solver.errors import PuzzleFormatError, QueensError
from queens_autosolve.solver.formats import (
    format_puzzle,
    format_puzzles,
    format_puzzlink,
    parse_puzzles,
    parse_puzzlink,
    read_puzzles,
)
from queens_autosolve.solver.propagate import Step, StepKind
from queens_autosolve.solver.puzzle import Cell, Puzzle, Solution, cell_name, is_solution, violations
from queens_autosolve.solver.search import SearchResult, count_solutions, explain, search, solve

__all__ = [
    "Cell",
    "Puzzle",
    "PuzzleFormatError",
    "QueensError",
    "SearchResult",
    "Solution",
    "Step",
    "StepKind",
    "cell_name",
    "count_solutions",
    "explain",
    "format_puzzle",
    "format_puzzles",
    "format_puzzlink",
    "is_solution",
    "parse_puzzles",
    "parse_puzzlink",
    "read_puzzles",
    "search",
    "solve",
    "violations",
]
