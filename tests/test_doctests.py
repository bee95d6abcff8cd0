"""Every docstring example of the product runs: each module of queens_autosolve, found by walking
the package (no hand-kept list to fall behind). Examples that need a desktop or a browser are
marked `+SKIP` where they are written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import sys

import pytest

import queens_autosolve

# Every module but __main__, which runs the command when imported.
MODULES = sorted(info.name for info in pkgutil.walk_packages(queens_autosolve.__path__, "queens_autosolve.")
                 if not info.name.endswith(".__main__"))


def examples_in(name: str) -> int:
    importlib.import_module(name)
    module = sys.modules[name]  # not the attribute: a package may re-export a function by its module's name
    return sum(len(test.examples) for test in doctest.DocTestFinder().find(module))


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_of_each_module_hold(name):
    importlib.import_module(name)
    failures, _ = doctest.testmod(sys.modules[name])
    assert failures == 0


def test_the_walk_finds_the_modules_and_their_examples():
    assert {"queens_autosolve.solver.puzzle", "queens_autosolve.twoplayer.amazons",
            "queens_autosolve.pages.http", "queens_autosolve.vision.read"} <= set(MODULES)
    assert sum(examples_in(name) for name in MODULES) > 80
