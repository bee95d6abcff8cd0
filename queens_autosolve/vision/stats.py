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


def run_medians(ordered: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The median of each run ordered[start:end] of sorted values, all at once (as `list_median`
    gives it: the middle value, or the mean of the middle two; x + x halved is x exactly)."""
    length = ends - starts
    return np.asarray((ordered[starts + (length - 1) // 2] + ordered[starts + length // 2]) / 2)


def group_medians(values: np.ndarray, groups: np.ndarray, count: int) -> np.ndarray:
    """Per group 0..count-1, the median of the values in it (`groups`: each value's group; groups
    from `count` on are left out), NaN for a group without values: all groups in one sort."""
    order = np.lexsort((values, groups))
    sizes = np.bincount(groups, minlength=count)
    ends = np.cumsum(sizes)
    starts = ends - sizes
    seen = sizes[:count] > 0
    medians = np.full(count, np.nan)
    medians[seen] = run_medians(values[order], starts[:count][seen], ends[:count][seen])
    return medians
