"""What the kinds' rule checkers share."""

from __future__ import annotations

from collections import Counter


def repeats(values) -> list[int]:
    """The values seen more than once in ``values``, ascending."""
    return sorted(v for v, k in Counter(values).items() if k > 1)
