"""Small checks the tests share."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def present(value: T | None) -> T:
    """`value`, which the test expects to be there (a solution, a propagation that found no
    contradiction, a board found): AssertionError when it is None."""
    assert value is not None, "expected a value, got None"
    return value
