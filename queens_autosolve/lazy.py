"""Package names that load on first use (PEP 562): a package lists each public name with the
module that holds it, and importing the package imports none of them, so its light modules stay
importable without the heavy libraries its other modules need."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """The module `__getattr__` of `package`: a name of `homes` is taken from its module on first
    use and kept in the package (later lookups do not come back here)."""

    def load(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(home), name)
        setattr(sys.modules[package], name, value)
        return value

    return load
