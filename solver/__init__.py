"""The Queens / Star Battle solver: the puzzle model, text formats and the search.

>>> from solver import Puzzle, solve
>>> solve(Puzzle.from_rows(["ABBB", "ABCC", "DDCC", "DDDD"])).grid(4)
['..Q.', 'Q...', '...Q', '.Q..']
"""

from solver.errors import PuzzleFormatError, QueensError
from solver.formats import (
    format_puzzle,
    format_puzzles,
    format_puzzlink,
    parse_puzzles,
    parse_puzzlink,
    read_puzzles,
)
from solver.propagate import Step, StepKind
from solver.puzzle import Cell, Puzzle, Solution, cell_name, is_solution, violations
from solver.search import SearchResult, count_solutions, explain, search, solve

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
