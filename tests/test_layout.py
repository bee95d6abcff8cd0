"""The shape of the codebase that issue 9 asks to keep: product modules a reader can hold."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT_PACKAGES = ("actuator", "autosolve", "bench", "capture", "pages", "solver", "twoplayer", "vision")
MAX_LINES = 600


def test_no_product_module_is_over_600_lines():
    modules = [path for package in PRODUCT_PACKAGES
               for path in (ROOT / "queens_autosolve" / package).rglob("*.py")]
    assert len(modules) > 50  # the packages were found
    long = {str(path.relative_to(ROOT)): n for path in modules
            if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert long == {}, f"split these by idea: {long}"

