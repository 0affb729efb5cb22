"""The lines format: Sudoku and Takuzu, one puzzle per line, as in the classic benchmark lists.

A puzzle is one word of N*N characters, row-major; the size comes from the
length (16, 81, 256, 625 or 1296 characters: 4x4 .. 36x36; any N from 4 to 36)
and the box shape is the squarest one unless the instance set's
``options: {box: RxC}`` says otherwise (``--size N`` forces one size).
Symbols: one alphabet for all the file's grids of a size, inferred from all
of them (:mod:`.symbols`): 9x9 ``1``-``9`` with one blank (``.``, ``0``,
``*``, ...); 16x16 ``1-9A-G``, ``0-9A-F`` (``0`` a digit, ``.`` the blank),
``A-P`` ...; ``--symbols`` names it when several fit.  The default writes
``.`` blanks and ``1``-``9`` then ``A``-``Z`` and ``a`` (36)::

    4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......

``#`` comment lines and blank lines are skipped; LF and CRLF ends both work.
Puzzles are named by their 1-based index among the puzzles (not the lines).

A line may carry more words, as the Sudoku Exchange banks do
(``<hash> <81 digits> <rating>`` and ``<81 puzzle> <81 solution>``): the
words of the line's longest grid length N*N are its grids, the first the
puzzle and a second one its reference solution (no blanks); the other words
are kept in ``Entry.extra["fields"]``.

Takuzu (Binairo) lines hold ``0`` and ``1`` givens and ``-`` or ``.`` blanks,
one word of R*C characters row-major; the grid is square (the side from the
length) unless an ``RxC`` word comes first (``6x8 0-1-...``).  A second word
of ``0``/``1`` only is the solution (of the puzzle's length, else the line is
refused); sides are at most 100::

    -1--0-----0-1---1-0-00------1-0---1- 010101101010010011101100001011110100

The distinct rows and columns rule is an instance-set option
(``distinct_lines: true``; ``import --distinct``).  When every line reads
both as a Sudoku and as a Takuzu (only ``0``, ``1`` and ``.``), the reader
asks for ``--puzzle`` rather than choose.

A lines solution file holds one solution per line in the same alphabet (the
second grid word of a line if it has two, else the first); in a file of
several lines, the solution of puzzle "K" is on the K-th (non-comment) line.
"""

from __future__ import annotations

import math
import re
from functools import partial

import numpy as np

from ..errors import PuzzleError
from ..puzzles import Sudoku, Takuzu
from . import symbols
from .entry import Entry
from .layout import Layout
from .rules import MAX_SUDOKU, Rules
from .text import (
    MAX_SIDE,
    AmbiguousReading,
    TextLine,
    build_located,
    content_lines,
    require_kind,
    split_lines,
)

PUZZLES = ("sudoku", "takuzu")
SOLUTIONS = ("sudoku", "killer", "takuzu")  # a Killer's solution is a Sudoku grid

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
    """Is ``word`` as long as a Sudoku of some size 4..36 (16, 81, ... 1296 characters)?"""
    return len(word) in _LENGTHS


def _is_grid_word(word: str) -> bool:
    return len(word) in _LENGTHS and _SEPARATORS.isdisjoint(word)


def looks_like(text: str) -> bool:
    """Does a line hold a word of N*N characters one alphabet reads as a Sudoku?"""
    for word in text.split():
        if _is_grid_word(word):
            try:
                symbols.decode([word], _LENGTHS[len(word)])
            except PuzzleError:
                continue
            return True
    return False


def side_of(word: str, size: tuple[int, int] | None = None) -> int | None:
    """The side N of a grid word of N*N symbols (that of ``size`` when given), else None."""
    n = _LENGTHS.get(len(word)) if _is_grid_word(word) else None
    return n if n is not None and (size is None or size == (n, n)) else None


def _size_of(line: TextLine, size: tuple[int, int] | None) -> int:
    """The grid side of a line: that of its longest word of a grid length (or of --size)."""
    lengths = [len(w) for w in line.text.split() if _is_grid_word(w)]
    if size is not None:
        if size[0] != size[1] or size[0] * size[0] not in lengths:
            raise PuzzleError(f"the line holds no word of {size[0] * size[1]} characters, the "
                              f"{size[0]}x{size[1]} sudoku's cells", line=line.number)
        return size[0]
    if not lengths:
        longest = max(line.text.split(), key=len)
        raise PuzzleError(f"expected a sudoku of 16, 81, 256, 625 or 1296 (N*N for N = 4..36) characters, "
                          f"got {len(longest)} characters", line=line.number)
    return _LENGTHS[max(lengths)]


def read(text: str, path: str, puzzle: str | None, rules: Rules, layout: Layout = Layout()) -> list:
    """Sudoku or Takuzu lines; with ``puzzle`` None the file is read as both, and it must be
    exactly one of them (a file both readers accept is refused: say which with --puzzle)."""
    if puzzle not in (None, *PUZZLES):
        raise PuzzleError(f"the lines format holds only sudoku and takuzu puzzles, not {puzzle}")
    readers = {"sudoku": _read_sudoku, "takuzu": _read_takuzu}
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


def _read_sudoku(text: str, path: str, rules: Rules, layout: Layout) -> list:
    rules.require_applicable("sudoku")
    rows = []  # (line, side, grid words, other words) or a PuzzleError
    for line in content_lines(split_lines(text)):
        try:
            n = _size_of(line, layout.size)
        except PuzzleError as err:
            rows.append(err)
            continue
        words = line.text.split()
        grid_words = [w for w in words if len(w) == n * n and _is_grid_word(w)]
        rows.append((line, n, grid_words[:2], [w for w in words if w not in grid_words[:2]]))
    return sudoku_entries(rows, path, rules, layout, "the second grid word, the solution,")


def sudoku_entries(rows: list, path: str, rules: Rules, layout: Layout, solution: str) -> list:
    """The Sudoku entries of ``rows``, each (line, side, [puzzle word, solution word?], other words)
    or a PuzzleError, their words read with one alphabet per size (:func:`decode_rows`); named by
    position; ``solution`` names the solution word in the message when it has blanks."""
    grids = decode_rows([r for r in rows if not isinstance(r, PuzzleError)], layout)
    entries = []
    for row in rows:
        name = str(len(entries) + 1)
        if isinstance(row, PuzzleError):
            entries.append(row)
            continue
        line, n, _, others = row
        try:
            if isinstance(grids[line.number], PuzzleError):
                raise grids[line.number]
            puzzle_grid, *found = grids[line.number]
            if found and (found[0] == 0).any():
                raise PuzzleError(f"{solution} has blanks", line=line.number)
            br, bc = rules.box_for(n)
            sudoku = build_located(partial(Sudoku, puzzle_grid, br, bc, name), [], line.number)
        except PuzzleError as err:
            entries.append(err.locate(None, line.number))
            continue
        extra = {"fields": others} if others else {}
        entries.append(Entry(sudoku, name, path, line.number, found[0] if found else None, extra))
    return entries


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


_TAKUZU_VALUE = {"0": 0, "1": 1, "-": -1, ".": -1}
_TAKUZU_WORD = re.compile(r"[01.-]+")
_SHAPE = re.compile(r"([0-9]{1,3})x([0-9]{1,3})")


def _takuzu_words(line: TextLine, shape: tuple[int, int] | None = None):
    """(shape, puzzle grid, solution grid or None, other words) of a Takuzu line."""
    words = line.text.split()
    if words and (match := _SHAPE.fullmatch(words[0])):
        stated, words = (int(match[1]), int(match[2])), words[1:]
        if not (1 <= stated[0] <= MAX_SIDE and 1 <= stated[1] <= MAX_SIDE):
            raise PuzzleError(f"the size {match[0]} is out of range: sides 1..{MAX_SIDE}", line=line.number)
        if shape is not None and stated != shape:
            raise PuzzleError(f"the line is {match[0]}, the puzzle {shape[0]}x{shape[1]}", line=line.number)
        shape = stated
    if not words or not _TAKUZU_WORD.fullmatch(words[0]):
        bad = next((ch for ch in (words[0] if words else "") if ch not in _TAKUZU_VALUE), None)
        raise PuzzleError("expected a takuzu line of 0, 1 and '-' or '.' (blank)"
                          + (f", got the character {bad!r}" if bad else ""), line=line.number)
    puzzle = words[0]
    if shape is None:
        side = math.isqrt(len(puzzle))
        if side * side != len(puzzle):
            raise PuzzleError(f"a takuzu line of {len(puzzle)} characters is no square grid; "
                              "put its size RxC first", line=line.number)
        shape = (side, side)
    if max(shape) > MAX_SIDE:
        raise PuzzleError(f"a {shape[0]}x{shape[1]} takuzu is larger than the {MAX_SIDE}x{MAX_SIDE} the "
                          "readers accept", line=line.number)
    if len(puzzle) != shape[0] * shape[1]:
        raise PuzzleError(f"a {shape[0]}x{shape[1]} takuzu has {shape[0] * shape[1]} cells, "
                          f"the line has {len(puzzle)}", line=line.number)
    grid = np.array([_TAKUZU_VALUE[ch] for ch in puzzle], dtype=np.int64).reshape(shape)
    solution, others = None, words[1:]
    if others and set(others[0]) <= set("01"):  # a word of 0s and 1s after the puzzle is its solution
        if len(others[0]) != len(puzzle):
            raise PuzzleError(f"the solution word has {len(others[0])} characters, the puzzle {len(puzzle)}",
                              line=line.number)
        solution = np.array([int(ch) for ch in others[0]], dtype=np.int64).reshape(shape)
        others = others[1:]
    return shape, grid, solution, others


def _read_takuzu(text: str, path: str, rules: Rules, layout: Layout) -> list:
    rules.require_applicable("takuzu")
    entries = []
    for line in content_lines(split_lines(text)):
        name = str(len(entries) + 1)
        try:
            _, grid, solution, others = _takuzu_words(line, layout.size)
            takuzu = build_located(partial(Takuzu, grid, bool(rules.distinct_lines), name), [], line.number)
        except PuzzleError as err:
            entries.append(err)
            continue
        extra = {"fields": others} if others else {}
        entries.append(Entry(takuzu, name, path, line.number, solution, extra))
    return entries


def read_solutions(text: str, puzzle) -> list[tuple[int, np.ndarray]]:
    """The solution for ``puzzle`` as [(line, grid)]: the only line's, or in a file of several
    lines the one of line number ``puzzle.name`` (1-based, lines counted without comments)."""
    kind = require_kind(puzzle, "lines", SOLUTIONS, "solutions")
    found = content_lines(split_lines(text))
    if len(found) > 1:
        name = puzzle.name
        index = int(name) if name.isascii() and name.isdecimal() else 0
        if not 1 <= index <= len(found):
            raise PuzzleError(f"the file holds {len(found)} solutions, one per line, and puzzle {name!r} "
                              f"does not pick one (expected a puzzle named 1..{len(found)})")
        found = [found[index - 1]]
    solutions = []
    for line in found:
        if kind == "takuzu":
            _, grid, solution, _ = _takuzu_words(line, puzzle.shape)
            solutions.append((line.number, solution if solution is not None else grid))
            continue
        n = _size_of(line, puzzle.shape)
        words = [w for w in line.text.split() if len(w) == n * n and _is_grid_word(w)][:2]
        grids = decode_rows([(line, n, words[-1:], [])], Layout(), blank_free=True)[line.number]
        if isinstance(grids, PuzzleError):
            raise grids
        solutions.append((line.number, grids[-1]))
    return solutions


def encode(grid: np.ndarray) -> str:
    """A grid as one word, ``.`` for blanks."""
    return "".join(SYMBOLS[v - 1] if v > 0 else "." for v in np.asarray(grid).ravel().tolist())


def _takuzu_word(grid: np.ndarray) -> str:
    return "".join("-" if v < 0 else str(v) for v in np.asarray(grid).ravel().tolist())


def _takuzu_prefix(shape: tuple[int, int]) -> str:
    return "" if shape[0] == shape[1] else f"{shape[0]}x{shape[1]} "


def format_puzzle(puzzle) -> str:
    if require_kind(puzzle, "lines", PUZZLES) == "takuzu":
        if puzzle.distinct_lines:
            raise PuzzleError("the lines format cannot state the distinct rows and columns rule; use the native "
                              "format or the set option distinct_lines: true")
        return _takuzu_prefix(puzzle.shape) + _takuzu_word(puzzle.givens) + "\n"
    if not MIN_SIZE <= puzzle.n <= MAX_SUDOKU:
        raise PuzzleError(f"the lines format holds sudoku of size {MIN_SIZE}..{MAX_SUDOKU}, not {puzzle.n}")
    default = Rules().box_for(puzzle.n)
    if (puzzle.box_rows, puzzle.box_cols) != default:
        raise PuzzleError(f"the lines format cannot state the box shape {puzzle.box_rows}x{puzzle.box_cols} "
                          f"(it implies {default[0]}x{default[1]}); use the native format")
    return encode(puzzle.givens) + "\n"


def format_solution(puzzle, grid: np.ndarray) -> str:
    if require_kind(puzzle, "lines", SOLUTIONS, "solutions") == "takuzu":
        if not np.isin(grid, (0, 1)).all():
            raise PuzzleError("a takuzu solution holds 0 and 1 only")
        return _takuzu_prefix(puzzle.shape) + _takuzu_word(grid) + "\n"
    if ((grid < 0) | (grid > len(SYMBOLS))).any():
        raise PuzzleError(f"the lines format cannot write values outside 0..{len(SYMBOLS)}")
    return encode(grid) + "\n"
