# Everyday commands. `make test` and `make demo` work on a fresh machine with Python and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PACKAGES := queens_autosolve benchmarks

.PHONY: test check demo bench bench-generate bench-live bench-stars lint system-deps clean

# pip is upgraded first: the pip a venv comes with (23.2 with Python 3.11) spent 6-7 s more of CPU
# than a current one matching the requirements against the index's files, more than the upgrade
# takes (2 s). Where it cannot be upgraded (no index), the venv's own does if it is new enough for
# an editable install from pyproject.toml (PEP 660: pip 21.3). pip byte-compiles nothing itself
# (one file after another): compileall does it on both cores, leaving out what the tests never
# import (the installers, mypyc, pygments, the packages' own tests: 2.4 s of 4.8 s on this
# machine). The editable build's notice about same-named folders in the working directory
# (setuptools) says nothing about this project.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check --no-compile --upgrade pip \
		|| $(BIN)/python -c 'import pip, sys; sys.exit(tuple(map(int, pip.__version__.split(".")[:2])) < (21, 3))'
	PYTHONWARNINGS="ignore:Editable installation" \
		$(BIN)/pip install --quiet --disable-pip-version-check --no-compile -e '.[test]'
	$(BIN)/python -m compileall -q -j 0 -x '/(pip|setuptools|pkg_resources|mypyc|pygments|_distutils_hack)/|/tests?/' \
		"$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
	touch $(STAMP)

# Xvfb and Chromium come from the system packages (installed when we are root, else the
# exact command is printed). The live tests and the demo need them.
system-deps:
	@PYTHON=$(BIN)/python sh scripts/system-deps.sh

# The suite runs on pytest-xdist workers, one more than the cores, at most 4 (each worker starts
# its own Xvfb and browsers), a test module at a time (its displays and browsers start once; see
# tests/conftest.py). One more: the live tests wait for browsers, and with one worker per core
# the 2-core machine stood idle 12-15 of its ~200 CPU-seconds; with three, 2-5 (wall time -5 to
# -20 s in 4 of 4 runs taken in turns). The packages are byte-compiled first: the tests start the
# command in fresh processes, and where PYTHONDONTWRITEBYTECODE is set (as on our machines) each
# of them would compile the packages again (about 0.1 s of CPU a start).
# pytest runs with PYTHONDONTWRITEBYTECODE emptied: its workers keep the test modules they
# compiled (assertions rewritten) for the next run, instead of compiling all of them each run (each
# worker's collection took 5 CPU-s that way, 1.8 s from the kept files).
# The modules go out costliest first (tests/conftest.py orders them; xdist's own reordering, by
# test count, would put a long live module of few tests last and leave the other workers idle).
WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); echo $$(( n + 1 < 4 ? n + 1 : 4 )))
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest
# mypy runs beside the tests (alone, it held one core for 14 s from a fresh clone, the other idle);
# its report follows theirs, and either failing fails `make test`.
test: $(STAMP) system-deps
	$(BIN)/ruff check .
	$(BIN)/python -m compileall -q -j 0 $(PACKAGES)
	@echo "mypy (beside the tests; its report follows theirs)"
	@$(BIN)/mypy > $(VENV)/mypy.out 2>&1 & types=$$!; trap 'kill $$types 2>/dev/null' INT TERM; \
	$(PYTEST) -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder; tests=$$?; \
	wait $$types; typed=$$?; cat $(VENV)/mypy.out; [ $$tests -eq 0 ] && [ $$typed -eq 0 ]

# The fast inner loop: ruff, mypy and every offline test (tests/conftest.py marks a test that
# takes a display or a browser e2e; the wheel's install test is marked wheel). No system packages
# needed. `make test` runs everything and stays the test command. One worker per core: offline
# tests wait for no browser, and a worker more only collects the suite once more (5 s of CPU).
# worksteal: a worker that runs out takes tests queued on the other, so both cores stay busy to
# the end; each starts on its half of the suite in order, so a module's tests mostly share one
# worker (and the searches a module keeps for its tests, as test_solver_stars.py does).
CHECK_WORKERS ?= $(shell nproc 2>/dev/null || echo 1)
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(PYTEST) -q -n $(CHECK_WORKERS) --dist worksteal -m "not e2e and not wheel"

demo: $(STAMP) system-deps
	$(BIN)/queens-autosolve demo $(DEMO_ARGS)

# The solver (benchmarks/solve_times.py) on games/ and ../shared/data (LinkedIn levels and the
# Star Battle sets), against plain backtracking and the peers of benchmarks/peers.py: CP-SAT and
# CaDiCaL (the optional extra `bench`, installed here first) and a propagation-only solver, on a
# sample of each set (BENCH_ARGS, e.g. --peer-sample 50 --peer-budget 10). The stamp reinstalls
# when pyproject.toml changes, so the installed command finds benchmarks/.
bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/queens-autosolve bench $(BENCH_ARGS)

# The generator: 10 seeds each of 20x20 and 30x30, against the same generator checking each cell alone.
bench-generate: $(STAMP)
	$(BIN)/queens-autosolve bench --generate 20,30 --seeds 10

# The live job: 10 fresh `run` processes on the 11x11 practice page in Chromium (Xvfb; with
# BENCH_LIVE_ARGS=--desktop sway, native on a headless sway through the wlroots desktop).
bench-live: $(STAMP) system-deps
	$(BIN)/python -m scripts.bench_live --runs 10 $(BENCH_LIVE_ARGS)

# Star Battle, the deeper look: our solver against CP-SAT and SAT (CaDiCaL, the same peers as
# `make bench`) on every puzzle of a sample of 200 per set, with --ablate (each rule left out),
# --trials and --before REF (an earlier commit's solver) in BENCH_ARGS. Installs the extra `bench`.
bench-stars: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/starbattle.py $(BENCH_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
