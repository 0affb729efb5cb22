"""janko.at's text layout (:mod:`puzzlebench.io.janko`): a ``ROWS COLS`` header, then the rows."""

from __future__ import annotations

from ...errors import PuzzleError
from ..text import TextLine


def body(lines: list[TextLine], count: int) -> list[TextLine]:
    """Exactly ``count`` rows after the header."""
    rows = lines[1:]
    if len(rows) < count:
        raise PuzzleError(f"the text ends after {len(rows)} of the {count} rows", line=lines[-1].number)
    if len(rows) > count:
        raise PuzzleError(f"unexpected line after the {count} rows: {rows[count].text[:40]!r}",
                          line=rows[count].number)
    return rows


def rows_text(shape: tuple[int, int], rows: list[list[str]]) -> str:
    """A janko text: the header, then the rows' tokens separated by spaces."""
    return f"{shape[0]} {shape[1]}\n" + "".join(" ".join(row) + "\n" for row in rows)


def cannot_state(what: str) -> PuzzleError:
    return PuzzleError(f"the janko format cannot state {what}; use the native format")
