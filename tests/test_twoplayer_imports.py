"""The two-player modules import in one direction: each imports alone, in a fresh interpreter,
and none leans on a `TYPE_CHECKING` import (which is how the Queens modules once closed a circle)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import queens_autosolve.twoplayer as twoplayer

MODULES = sorted(p.stem for p in Path(twoplayer.__file__).parent.glob("*.py") if p.stem != "__init__")


@pytest.mark.parametrize("module", MODULES)
def test_each_two_player_module_imports_alone(module):
    subprocess.run([sys.executable, "-c", f"import queens_autosolve.twoplayer.{module}"], check=True)


def test_no_two_player_module_imports_only_for_the_type_checker():
    folder = Path(twoplayer.__file__).parent
    assert [p.name for p in folder.glob("*.py") if "TYPE_CHECKING" in p.read_text()] == []
