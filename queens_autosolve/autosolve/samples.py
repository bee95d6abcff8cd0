"""The sample puzzles the project ships: games/ in a source checkout, their copy inside an
installed wheel; both are the package `queens_autosolve.samples`, so `bench` and `solve --sample`
work from any directory."""

from __future__ import annotations

from pathlib import Path

from queens_autosolve.solver.errors import QueensError


def sample_folder() -> Path:
    """Where the sample puzzle files are."""
    from importlib.resources import files

    return Path(str(files("queens_autosolve.samples")))


def sample_names() -> list[str]:
    """The samples by name (a file's name without .txt), e.g. 'queens-09' or 'stars2-10'."""
    return sorted(path.stem for path in sample_folder().glob("*.txt"))


def sample_path(name: str) -> Path:
    """The file of sample `name`, or a QueensError listing the samples there are."""
    path = sample_folder() / f"{name.removesuffix('.txt')}.txt"
    if not path.is_file():
        raise QueensError(f"no sample named {name!r}; the samples: {', '.join(sample_names())}")
    return path
