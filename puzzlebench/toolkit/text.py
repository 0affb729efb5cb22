"""Reading a text file as numbered lines, and the small token parsers every format shares (io's layouts and
the kinds' parts of them alike)."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import PuzzleError

MAX_SIDE = 100
"""Largest row or column count accepted for Kakuro and Takuzu grids."""


class AmbiguousReading(PuzzleError):
    """A file that reads as different puzzles: the reader names the readings and the option that decides."""


class FormatsDisagree(AmbiguousReading):
    """A file that two formats read, as different puzzles."""

_UINT = re.compile(r"[0-9]{1,6}")


@dataclass(frozen=True)
class TextLine:
    """A file line: its 1-based number and its text without surrounding blanks."""

    number: int
    text: str


MAX_INPUT_BYTES = 128 * 2**20
"""The largest input file read (128 MiB): a device, an endless stream or a mistaken file is refused, not
read until memory runs out."""


def read_text(path) -> str:
    """The file's text as UTF-8 (a byte-order mark is dropped); undecodable bytes, a file that is not a
    regular file (a FIFO would block, a device never end) or one over :data:`MAX_INPUT_BYTES` are a
    PuzzleError."""
    where = os.fspath(path)
    try:
        kind = os.stat(path).st_mode
    except OSError as err:
        raise PuzzleError(f"cannot read it: {err.strerror}", path=where) from None
    if not stat.S_ISREG(kind):
        what = "a folder" if stat.S_ISDIR(kind) else "a FIFO" if stat.S_ISFIFO(kind) else "a device or socket"
        raise PuzzleError(f"not a regular file ({what}): give a puzzle file", path=where)
    with open(path, "rb") as f:
        data = f.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise PuzzleError(f"larger than {MAX_INPUT_BYTES // 2**20} MiB: not read (a puzzle file is far smaller)",
                          path=where)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise PuzzleError(f"byte 0x{data[err.start]:02x} is not UTF-8 text", path=os.fspath(path),
                          line=line) from None


def split_lines(text: str) -> list[TextLine]:
    """Every line of ``text`` (LF, CRLF or CR ends), numbered from 1, stripped."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [TextLine(i, line.strip()) for i, line in enumerate(lines, start=1)]


def is_comment(line: TextLine) -> bool:
    return line.text.startswith("#")


def content_lines(lines: list[TextLine]) -> list[TextLine]:
    """The lines that are neither blank nor ``#`` comments."""
    return [line for line in lines if line.text and not is_comment(line)]


def as_uint(token: str) -> int | None:
    """The value of a token of 1 to 6 ASCII digits, else None."""
    return int(token) if _UINT.fullmatch(token) else None


def row_cells(line: TextLine, width: int) -> list[str]:
    """The cells of a grid row: whitespace-separated tokens, or, when the row is a single
    word of exactly ``width`` characters (width > 1), one cell per character."""
    tokens = line.text.split()
    if len(tokens) == 1 and width > 1 and len(tokens[0]) == width:
        return list(tokens[0])
    if len(tokens) != width:
        raise PuzzleError(f"this row has {len(tokens)} cells, expected {width}", line=line.number)
    return tokens


def parse_row(line: TextLine, width: int, cell: Callable[[str], object], what: str) -> list:
    """A grid row through ``cell`` (a token to its value, or None when the token is invalid);
    ``what`` describes a valid token for the error message."""
    values = []
    for col, token in enumerate(row_cells(line, width), start=1):
        value = cell(token)
        if value is None:
            raise PuzzleError(f"column {col}: {token!r} is not {what}", line=line.number)
        values.append(value)
    return values


class Cursor:
    """Walks the lines of a text, skipping blanks and comments, for the line-oriented readers.

    ``is_row`` (optional, per call) rescues a line starting with ``#`` that is really a grid
    row (a Kakuro row may begin with the block token ``#``).
    """

    def __init__(self, lines: list[TextLine]):
        self.lines = lines
        self.pos = 0

    def _skip(self, is_row: Callable[[str], bool] | None) -> None:
        while self.pos < len(self.lines):
            line = self.lines[self.pos]
            if line.text and (not is_comment(line) or (is_row is not None and is_row(line.text))):
                return
            self.pos += 1

    def peek(self, is_row: Callable[[str], bool] | None = None) -> TextLine | None:
        """The next content line without consuming it, or None at the end."""
        self._skip(is_row)
        return self.lines[self.pos] if self.pos < len(self.lines) else None

    def take(self, is_row: Callable[[str], bool] | None = None) -> TextLine | None:
        """The next content line, consumed, or None at the end."""
        line = self.peek(is_row)
        if line is not None:
            self.pos += 1
        return line

    @property
    def last_line(self) -> int:
        """Number of the file's last non-blank line, for errors about a truncated file."""
        return next((line.number for line in reversed(self.lines) if line.text), 1)

    def take_rows(self, count: int, what: str, is_row=None) -> list[TextLine]:
        """The next ``count`` content lines as grid rows; a truncated file is a PuzzleError
        (``what`` names the grid in the message, e.g. "the puzzle at line 3")."""
        rows = []
        for _ in range(count):
            line = self.take(is_row)
            if line is None:
                raise PuzzleError(f"the file ends after {len(rows)} of the {count} rows of {what}",
                                  line=self.last_line)
            rows.append(line)
        return rows


def build_located(make: Callable, row_lines: list[int], default_line: int | None):
    """``make()``, with a PuzzleError about grid row r pointed at file line ``row_lines[r]``
    (at ``default_line`` when it names no row)."""
    try:
        return make()
    except PuzzleError as err:
        located = err.row is not None and 0 <= err.row < len(row_lines)
        err.locate(None, row_lines[err.row] if located else default_line)
        raise


MAX_CLUE = 45
"""The largest Kakuro clue: 1 + 2 + ... + 9."""


def kakuro_clue(pattern: "re.Pattern[str]", token: str) -> tuple[int, int, int] | None:
    """A clue token ``D<sep>A`` (either side may be empty) -> (0, down, across); None if invalid."""
    match = pattern.fullmatch(token)
    if not match:
        return None
    down, across = (int(s) if s else 0 for s in match.groups())
    if (match[1] and not 1 <= down <= MAX_CLUE) or (match[2] and not 1 <= across <= MAX_CLUE):
        return None
    return 0, down, across


def parse_pairs(text: str, option: str) -> dict[str, str]:
    """``"a=x,b=y"`` -> {"a": "x", "b": "y"} (a CLI option's ROLE=NAME list)."""
    pairs = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        if not key.strip() or not value.strip():
            raise PuzzleError(f"{option}: {part!r} is not ROLE=NAME (e.g. {option} puzzle=x)")
        pairs[key.strip()] = value.strip()
    return pairs


def read_only(name: str, files: str, write_as: str):
    """``(unsupported_solutions, read_solutions, format_puzzle, format_solution)`` of a format whose
    files (``files``, e.g. "Gecode's Kakuro arrays") state puzzles only and that is read, not
    written (``write_as``: the formats to use instead)."""
    def unsupported_solutions() -> PuzzleError:
        return PuzzleError(f"{files} hold no solutions; write the solution in the native format")

    def no_solutions(*_):
        raise unsupported_solutions()

    def format_puzzle(puzzle) -> str:
        raise PuzzleError(f"the {name} format is read, not written; use the {write_as} format")

    return unsupported_solutions, no_solutions, format_puzzle, no_solutions


def listing(words, last: str = "and") -> str:
    """``"a, b and c"`` (``last`` the word before the last one)."""
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def looks_like_row(cell):
    """A test for ``#`` lines: is this a grid row of ``cell`` tokens rather than a comment?"""
    def test(text: str) -> bool:
        tokens = text.split()
        cells = list(tokens[0]) if len(tokens) == 1 else tokens
        return len(cells) >= 2 and all(cell(t) is not None for t in cells)
    return test


def grid_text(tokens: list[list[str]], align: str = "right") -> str:
    """Rows of tokens, padded to one width (right- or left-aligned), one line each."""
    width = max(len(t) for row in tokens for t in row)
    pad = str.rjust if align == "right" else str.ljust
    return "".join(" ".join(pad(t, width) for t in row).rstrip() + "\n" for row in tokens)


def digits(grid) -> list[list[str]]:
    """The tokens of a grid (an integer array) of digits, ``.`` for a blank (0)."""
    return [[str(v) if v > 0 else "." for v in row] for row in grid.tolist()]
