"""The project's sample puzzles, shipped as queens_autosolve.samples."""
