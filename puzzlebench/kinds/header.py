"""The header line of a kind's native layout, ``<kind> SIZES [RxC] [FLAG]`` (:mod:`puzzlebench.io.native`),
read against the registered kinds: the kind names its sizes, box shape and flag (:class:`PuzzleKind`
``square``, ``max_side``, ``box``, ``flag``, ``native_usage``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import PuzzleError
from ..toolkit.rules import parse_box
from ..toolkit.text import TextLine, as_uint
from . import get_kind, names


@dataclass(frozen=True)
class Header:
    """A parsed header line."""

    kind: str
    rows: int
    cols: int
    box: tuple[int, int] | None
    flag: bool
    line: int


def parse_header(line: TextLine) -> Header:
    """The header ``<kind> SIZES [RxC] [FLAG]`` of a kind's native layout (its ``native_usage``)."""
    tokens = line.text.split()
    if tokens[0] not in names():
        raise PuzzleError(f"expected a header such as 'sudoku 9 3x3', 'killer 9 3x3 diagonal', "
                          f"'kakuro 5 5' or 'takuzu 8 8 distinct', got {line.text[:40]!r}", line=line.number)
    kind = get_kind(tokens[0])
    sizes = tokens[1:2] if kind.square else tokens[1:3]
    values = [as_uint(s) for s in sizes]
    if len(values) != (1 if kind.square else 2) or any(v is None or not 1 <= v <= kind.max_side for v in values):
        raise PuzzleError(f"bad header: expected '{kind.native_usage}' with sizes 1..{kind.max_side}",
                          line=line.number)
    rows, cols = (values[0], values[0]) if kind.square else values
    box, flag = None, False
    for word in tokens[1 + len(sizes):]:
        if kind.box and box is None and re.fullmatch(r"[0-9]{1,2}x[0-9]{1,2}", word):
            box = parse_box(word)
        elif kind.flag is not None and word == kind.flag and not flag:
            flag = True
        else:
            raise PuzzleError(f"bad header: unexpected {word!r}; expected '{kind.native_usage}'", line=line.number)
    return Header(kind.name, rows, cols, box, flag, line.number)
