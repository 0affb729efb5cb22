"""The lines format: one puzzle per line, as in the classic benchmark lists (Sudoku, Binairo lines).

A line is words separated by blanks; what its words state is the kinds' (the ``lines`` parts of
:attr:`puzzlebench.kinds.PuzzleKind.layouts`): Sudoku (``kinds/sudoku/lines.py``: a *grid word* of N*N
symbols) and Takuzu (``kinds/takuzu/lines.py``: ``0``/``1`` and blanks, after an optional ``RxC``); a
Killer's solution is a Sudoku grid (the killer kind's ``lines`` part is the sudoku kind's).  With no ``--puzzle`` the file is
read as each kind whose part reads puzzles, in the kinds' order, and it must read as exactly one of
them: when every line reads as two (a Sudoku and a Takuzu of ``0``, ``1`` and ``.`` only), the reader
asks for ``--puzzle`` rather than choose.

``#`` comment lines and blank lines are skipped; LF and CRLF ends both work.
Puzzles are named by their 1-based index among the puzzles (not the lines).

A grid word is N*N characters, row-major, no separator among them (``,;|"'``); N is 4 to 36 (16,
81, 256, 625 or 1296 characters).  Its symbols are one alphabet for all the file's grid words of a
size, inferred from all of them (:mod:`.symbols`; ``--symbols`` names it when several fit); the
default writes ``.`` blanks and ``1``-``9`` then ``A``-``Z`` and ``a`` (36)::

    4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......

A lines solution file holds one solution per line (a part says which word of it); in a file of
several lines, the solution of puzzle "K" is on the K-th (non-comment) line.
"""

from __future__ import annotations

import numpy as np

from ..errors import PuzzleError
from ..kinds import layout_parts
from ..toolkit import symbols
from ..toolkit.layout import Layout
from ..toolkit.rules import MAX_SUDOKU
from ..toolkit.text import AmbiguousReading, content_lines, listing, split_lines
from .parts import layout_holds, puzzle_part, solution_part

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZa"
BLANKS = ".0"
_SEPARATORS = set(",;|\"'")
MIN_SIZE = 4
_LENGTHS = {n * n: n for n in range(MIN_SIZE, MAX_SUDOKU + 1)}

_VALUE = np.full(256, -1, dtype=np.int64)
for _value, _symbol in enumerate(SYMBOLS, start=1):
    _VALUE[ord(_symbol)] = _value
for _symbol in BLANKS:
    _VALUE[ord(_symbol)] = 0


def __getattr__(name: str):
    if name in ("PUZZLES", "SOLUTIONS"):  # computed on use, as the kinds load on first use
        return layout_holds("lines", name.lower())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def decode(word: str, n: int) -> np.ndarray | None:
    """The n x n grid a word spells in the default alphabet (0 for blanks), or None if a character
    is not a symbol of 0..n."""
    if not word.isascii():
        return None
    values = _VALUE[np.frombuffer(word.encode("ascii"), dtype=np.uint8)]
    if ((values < 0) | (values > n)).any():
        return None
    return values.reshape(n, n)


def has_grid_length(word: str) -> bool:
    """Is ``word`` as long as a grid word of some size 4..36 (16, 81, ... 1296 characters)?"""
    return len(word) in _LENGTHS


def is_grid_word(word: str) -> bool:
    """Is ``word`` a grid word: N*N characters (N = 4..36), none of them a separator?"""
    return len(word) in _LENGTHS and _SEPARATORS.isdisjoint(word)


def looks_like(text: str) -> bool:
    """Does a line look like one of a kind's lines (a part's ``looks_like``)?"""
    return any(part.looks_like(text) for part in layout_parts("lines").values())


def side_of(word: str, size: tuple[int, int] | None = None) -> int | None:
    """The side N of a grid word of N*N symbols (that of ``size`` when given), else None."""
    n = _LENGTHS.get(len(word)) if is_grid_word(word) else None
    return n if n is not None and (size is None or size == (n, n)) else None


def read(text: str, path: str, puzzle: str | None, rules, layout: Layout = Layout()) -> list:
    """The puzzles of the lines of ``text``, as kind ``puzzle``; with ``puzzle`` None the file is read
    as each kind, and it must be exactly one of them (a file two readers accept is refused: say which
    with --puzzle)."""
    readers = {kind: part.read for kind, part in layout_parts("lines").items()}
    if puzzle not in (None, *readers):
        raise PuzzleError(f"the lines format holds only {listing(readers)} puzzles, not {puzzle}")
    if puzzle is not None:
        return readers[puzzle](text, path, rules, layout)
    return read_either(readers, text, path, rules, layout)


def read_either(readers: dict, *args, unit: str = "line") -> list:
    """The entries of the one reader in ``readers`` (kind -> reader) that reads every puzzle of the
    file; a file two of them read is refused (say which with --puzzle); when none reads it all,
    the reading that kept most puzzles (its refused puzzles as PuzzleErrors), else the error of
    the reader that got furthest."""
    read, failures = {}, []
    for kind, reader in readers.items():
        try:
            read[kind] = reader(*args)
        except PuzzleError as err:
            failures.append(err)
            continue
        failures += [i for i in read[kind] if isinstance(i, PuzzleError)][:1]
    whole = [kind for kind, items in read.items() if not any(isinstance(i, PuzzleError) for i in items)]
    if len(whole) > 1:
        raise AmbiguousReading(f"every {unit} reads both as a {whole[0]} and as a {whole[1]}: "
                          f"say which with --puzzle {whole[0]} or --puzzle {whole[1]}")
    if whole:
        return read[whole[0]]
    ambiguous = next((err for err in failures if isinstance(err, AmbiguousReading)), None)
    if ambiguous is not None:
        raise ambiguous
    kept = {kind: sum(not isinstance(i, PuzzleError) for i in items) for kind, items in read.items()}
    if kept and max(kept.values()) > 0:
        return read[max(kept, key=kept.get)]
    raise max(failures, key=lambda err: err.line or 0)  # the reader that got furthest


def decode_rows(rows: list, layout: Layout, blank_free: bool = False) -> dict[int, list]:
    """Line number -> its grids, each size read with the one alphabet of all the file's words of
    that size, or a PuzzleError for a line whose word holds a symbol that alphabet cannot read
    (that line is left out of the inference, and the others are read)."""
    by_size: dict[int, list] = {}
    for line, n, words, _ in rows:
        by_size.setdefault(n, []).append((line, words))
    grids: dict[int, list] = {}
    for n, found in by_size.items():
        while found:
            words = [w for _, ws in found for w in ws]
            owners = [k for k, (_, ws) in enumerate(found) for _ in ws]
            try:
                decoded = symbols.decode(words, n, layout.symbols, blank_free=blank_free)
            except PuzzleError as err:
                if err.row is None:
                    raise err.locate(None, found[0][0].number)
                line = found.pop(owners[err.row])[0]
                grids[line.number] = err.locate(None, line.number)
                continue
            k = 0
            for line, ws in found:
                grids[line.number] = list(decoded[k:k + len(ws)])
                k += len(ws)
            break
    return grids


def read_solutions(text: str, puzzle) -> list[tuple[int, np.ndarray]]:
    """The solution for ``puzzle`` as [(line, grid)]: the only line's, or in a file of several
    lines the one of line number ``puzzle.name`` (1-based, lines counted without comments)."""
    part = solution_part(puzzle, "lines")
    found = content_lines(split_lines(text))
    if len(found) > 1:
        name = puzzle.name
        index = int(name) if name.isascii() and name.isdecimal() else 0
        if not 1 <= index <= len(found):
            raise PuzzleError(f"the file holds {len(found)} solutions, one per line, and puzzle {name!r} "
                              f"does not pick one (expected a puzzle named 1..{len(found)})")
        found = [found[index - 1]]
    return [(line.number, part.read_solution(line, puzzle)) for line in found]


def encode(grid: np.ndarray) -> str:
    """A grid as one word, ``.`` for blanks."""
    return "".join(SYMBOLS[v - 1] if v > 0 else "." for v in np.asarray(grid).ravel().tolist())


def format_puzzle(puzzle) -> str:
    return puzzle_part(puzzle, "lines").format_puzzle(puzzle)


def format_solution(puzzle, grid: np.ndarray) -> str:
    return solution_part(puzzle, "lines").format_solution(puzzle, grid)
