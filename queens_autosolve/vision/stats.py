"""Median and percentile of NaN-free arrays, as numpy's give them.

numpy's own `median` and `percentile` check for NaN through `np.ma`, whose first import costs
25-40 ms in a fresh process: more than a whole warm board reading, and nothing else in a one-shot
`queens-autosolve run` imports it. The readers never produce NaN, so a sort does.
"""

from __future__ import annotations

import numpy as np


def median(values: np.ndarray, axis: int | None = None) -> np.ndarray:
    """The median along `axis` (None: of all values), like `np.median` for NaN-free input."""
    ordered = np.sort(np.asarray(values, dtype=np.float64), axis=axis)
    if axis is None:
        axis = 0
    count = ordered.shape[axis]
    if count == 0:  # NaN, as numpy gives (without its warning)
        return np.full(np.delete(ordered.shape, axis), np.nan)
    upper = np.take(ordered, count // 2, axis=axis)
    if count % 2:
        return np.asarray(upper)
    return np.asarray((np.take(ordered, count // 2 - 1, axis=axis) + upper) / 2)


def percentile(values: np.ndarray, q: float) -> float:
    """The q-th percentile of all values, linearly interpolated like `np.percentile`'s default."""
    ordered = np.sort(np.asarray(values, dtype=np.float64), axis=None)
    if ordered.size == 0:
        return float("nan")
    position = q / 100 * (ordered.size - 1)
    below = int(np.floor(position))
    above = min(below + 1, ordered.size - 1)
    return float(ordered[below] + (position - below) * (ordered[above] - ordered[below]))


def list_median(values: list[float]) -> float:
    """The median of a short list (numpy's costs more than the sort for a handful of values)."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
