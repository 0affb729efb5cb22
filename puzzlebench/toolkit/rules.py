"""Rule options from an instance set (``set.yaml``) and the markers files carry themselves.

``options`` may hold ``box`` ("2x3": box rows x box columns, Sudoku and Killer),
``diagonal`` (Killer-X) and ``distinct_lines`` (Takuzu).  A marker the file
states itself (a native header, a Tatham parameter) wins over the option.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from ..errors import PuzzleError

OPTIONS = ("box", "diagonal", "distinct_lines")
_BOX = re.compile(r"([0-9]{1,2})x([0-9]{1,2})")
MAX_SUDOKU = 36


@dataclass(frozen=True)
class Rules:
    """Rule options; None means "not stated", so a default or a file marker applies.  Which kinds take
    which option is the kinds' (:func:`puzzlebench.kinds.require_applicable`)."""

    box: tuple[int, int] | None = None
    diagonal: bool | None = None
    distinct_lines: bool | None = None

    def overridden(self, **markers) -> Rules:
        """These rules with the markers a file states (those not None) taking precedence."""
        return replace(self, **{k: v for k, v in markers.items() if v is not None})

    def box_for(self, n: int) -> tuple[int, int]:
        """The box shape of an n x n Sudoku: the stated one, else the default."""
        return self.box or default_box_shape(n)


def default_box_shape(n: int) -> tuple[int, int]:
    """The box shape br x bc (br <= bc, br*bc = n) closest to square: 6 -> 2x3, 12 -> 3x4."""
    br = math.isqrt(n)
    while n % br:
        br -= 1
    return br, n // br


def parse_box(text: str) -> tuple[int, int]:
    """``"2x3"`` -> (2, 3): box rows x box columns."""
    match = _BOX.fullmatch(text)
    if not match:
        raise PuzzleError(f"box shape {text!r} is not of the form RxC, e.g. 2x3")
    if int(match[1]) < 1 or int(match[2]) < 1:
        raise PuzzleError(f"box shape {text!r}: a box has at least 1 row and 1 column")
    return int(match[1]), int(match[2])


def parse_rules(options: dict | None) -> Rules:
    """Validate an ``options`` mapping into :class:`Rules`."""
    if not options:
        return Rules()
    if not isinstance(options, dict):
        raise PuzzleError(f"options must be a mapping, got {type(options).__name__}")
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise PuzzleError(f"unknown option {unknown[0]!r} (known: {', '.join(OPTIONS)})")
    rules = {}
    for name in ("diagonal", "distinct_lines"):
        if name in options:
            if not isinstance(options[name], bool):
                raise PuzzleError(f"option {name} must be true or false, got {options[name]!r}")
            rules[name] = options[name]
    if "box" in options:
        box = options["box"]
        if isinstance(box, str):
            rules["box"] = parse_box(box)
        elif isinstance(box, (list, tuple)) and len(box) == 2 and all(type(v) is int for v in box):
            rules["box"] = (box[0], box[1])
        else:
            raise PuzzleError(f"option box must be a shape like \"2x3\", got {box!r}")
    return Rules(**rules)
