"""Benchmarks: where speed is measured, outside the product packages (tests check behaviour only).

`solve_times` with `solve_report` (against the peers in `peers` and `propagation` and the plain
backtracker in `baseline`) and `generate_times` are what `queens-autosolve bench` runs, so this
package is installed beside the product; the other modules are scripts run from the project root (``python
benchmarks/<name>.py``). Such a script has this folder first on sys.path, so no module here may
be named like a top-level package (solver, vision, twoplayer, ...).
"""
