"""The order the suite's modules go out in (tests/conftest.py): the costliest first, each
module's tests together and in their own order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import pytest

from tests.conftest import LIVE_WEIGHT, longest_modules_first


@dataclass(frozen=True)
class Stand:
    """What the ordering reads of a test: its node id and its marks."""

    nodeid: str
    marks: frozenset[str] = field(default_factory=frozenset)

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.marks else None


def ordered(*tests: Stand) -> list[str]:
    return [item.nodeid for item in longest_modules_first(cast(list[pytest.Item], list(tests)))]


def test_a_module_of_few_live_tests_goes_before_one_of_many_offline_tests():
    offline = [Stand(f"tests/test_many.py::t{i}") for i in range(LIVE_WEIGHT + 1)]
    live = [Stand(f"tests/test_live.py::{name}", frozenset({"e2e"})) for name in "ab"]
    assert ordered(*offline, *live)[:2] == ["tests/test_live.py::a", "tests/test_live.py::b"]


def test_the_wheel_counts_as_slow_and_each_module_keeps_its_tests_together_in_order():
    tests = [Stand("tests/test_a.py::x"), Stand("tests/test_b.py::x"), Stand("tests/test_a.py::y"),
             Stand("tests/test_wheel.py::w", frozenset({"wheel"})), Stand("tests/test_c.py::z")]
    assert ordered(*tests) == ["tests/test_wheel.py::w", "tests/test_a.py::x", "tests/test_a.py::y",
                               "tests/test_b.py::x", "tests/test_c.py::z"]
