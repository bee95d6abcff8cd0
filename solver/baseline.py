"""Moved to benchmarks/baseline.py (issue 9). Transitional alias, to delete once
tests/test_solver.py, tests/test_solver_stars.py and tests/test_generate.py import it there."""

import sys

from benchmarks import baseline

sys.modules[__name__] = baseline
