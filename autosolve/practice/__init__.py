"""A local copy of the LinkedIn Queens page to practise on and to test the live pipeline against."""

from autosolve.practice.server import (
    REGION_COLOURS,
    PageOptions,
    PageState,
    PracticeServer,
    PracticeTimeout,
    region_colours,
)

__all__ = [
    "REGION_COLOURS", "PageOptions", "PageState", "PracticeServer", "PracticeTimeout", "region_colours",
]
