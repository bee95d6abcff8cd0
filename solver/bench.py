"""Moved to benchmarks/solve_times.py (issue 9). Transitional alias, to delete once
tests/test_solver.py, tests/test_solve_cli.py and tests/test_shared_levels.py import it there."""

import sys

from benchmarks import solve_times

sys.modules[__name__] = solve_times
