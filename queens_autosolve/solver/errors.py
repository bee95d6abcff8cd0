"""Errors a user can fix. The CLI prints them as one line and exits with status 2."""


class QueensError(Exception):
    """Base for every problem caused by the user's input or environment (not a bug)."""


class PuzzleFormatError(QueensError):
    """A puzzle file, URL or grid that cannot be read, or that breaks the rules of the puzzle."""
