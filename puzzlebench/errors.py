"""The one error type users see: a problem in an input, located by file and line."""

from __future__ import annotations


class PuzzleError(ValueError):
    """Bad input: a malformed file, an impossible clue, an unknown option.

    ``str(err)`` is one line, ``path:line: problem``, ready to print.  A data type
    that finds a problem names the grid ``row`` (0-based) it concerns; the parser
    that built it knows which file line holds that row and calls :meth:`locate`.
    """

    def __init__(self, problem: str, *, path: str | None = None, line: int | None = None,
                 row: int | None = None):
        super().__init__(problem)
        self.problem = problem
        self.path = path
        self.line = line
        self.row = row

    def locate(self, path: str | None = None, line: int | None = None) -> "PuzzleError":
        """Fill in the file and line where they are not known yet; return self."""
        if self.path is None:
            self.path = path
        if self.line is None:
            self.line = line
        return self

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line is not None else f"{self.path}: "
        elif self.line is not None:
            where = f"line {self.line}: "
        return f"{where}{self.problem}"
