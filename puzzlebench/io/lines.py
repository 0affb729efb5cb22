"""The lines format: Sudoku and Takuzu, one puzzle per line, as in the classic benchmark lists.

A puzzle is one word of N*N characters, row-major; the size comes from the
length (16, 81, 256, 625 or 1296 characters: 4x4 .. 36x36; any N from 4 to 36)
and the box shape is the squarest one unless the instance set's
``options: {box: RxC}`` says otherwise.  Symbols: ``.`` or ``0`` a blank,
``1``-``9`` the values 1..9, ``A``-``Z`` 10..35 and ``a`` 36 (the one
lower-case letter, needed only by 36x36); nothing else is accepted::

    4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......

``#`` comment lines and blank lines are skipped; LF and CRLF ends both work.
Puzzles are named by their 1-based index among the puzzles (not the lines).

A line may carry more words, as the Sudoku Exchange banks do
(``<hash> <81 digits> <rating>`` and ``<81 puzzle> <81 solution>``): the first
word of a valid length made of valid symbols is the puzzle, a second such
word is its reference solution, and the other words are kept in
``Entry.extra["fields"]``.

Takuzu (Binairo) lines hold ``0`` and ``1`` givens and ``-`` or ``.`` blanks,
one word of R*C characters row-major; the grid is square (the side from the
length) unless an ``RxC`` word comes first (``6x8 0-1-...``).  A second word
of ``0``/``1`` only is the solution::

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
from ..puzzles import KillerSudoku, Sudoku, Takuzu
from .entry import Entry
from .rules import MAX_SUDOKU, Rules
from .text import MAX_SIDE, TextLine, build_located, content_lines, split_lines

PUZZLES = ("sudoku", "takuzu")

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZa"
BLANKS = ".0"
MIN_SIZE = 4
_LENGTHS = {n * n: n for n in range(MIN_SIZE, MAX_SUDOKU + 1)}

_VALUE = np.full(256, -1, dtype=np.int64)
for _value, _symbol in enumerate(SYMBOLS, start=1):
    _VALUE[ord(_symbol)] = _value
for _symbol in BLANKS:
    _VALUE[ord(_symbol)] = 0


def decode(word: str, n: int) -> np.ndarray | None:
    """The n x n grid a word spells (0 for blanks), or None if a character is not a symbol of 0..n."""
    if not word.isascii():
        return None
    values = _VALUE[np.frombuffer(word.encode("ascii"), dtype=np.uint8)]
    if ((values < 0) | (values > n)).any():
        return None
    return values.reshape(n, n)


def has_grid_length(word: str) -> bool:
    """Is ``word`` as long as a Sudoku of some size 4..36 (16, 81, ... 1296 characters)?"""
    return len(word) in _LENGTHS


def _bad_symbol(word: str, n: int) -> str:
    """Why ``word`` is not a grid of size n: its first invalid character."""
    pos, ch = next((pos, ch) for pos, ch in enumerate(word, start=1)
                   if not 0 <= (_VALUE[ord(ch)] if ord(ch) < 256 else -1) <= n)
    allowed = f"1-9, A-{SYMBOLS[min(n, 35) - 1]}" if n > 9 else f"1-{n}"
    if n == 36:
        allowed += ", a"
    return f"character {pos} is {ch!r}, not a blank ('.' or '0') or a symbol {allowed}"


def _grid_words(line: TextLine, n: int | None = None) -> tuple[list[np.ndarray], list[str]]:
    """The words of a line that spell grids (of size n when given) and the other words.

    A line with no grid word is a PuzzleError saying why the likeliest word fails.
    """
    grids, others, near = [], [], None
    for word in line.text.split():
        size = _LENGTHS.get(len(word)) if n is None else (n if len(word) == n * n else None)
        grid = decode(word, size) if size else None
        if grid is None:
            others.append(word)
            if size and near is None:
                near = (word, size)
        else:
            grids.append(grid)
    if grids:
        return grids, others
    if near:
        raise PuzzleError(_bad_symbol(*near), line=line.number)
    lengths = f"{n * n}" if n else "16, 81, 256, 625 or 1296 (N*N for N = 4..36)"
    longest = max(line.text.split(), key=len)
    raise PuzzleError(f"expected a sudoku of {lengths} characters, got {len(longest)} characters",
                      line=line.number)


def read(text: str, path: str, puzzle: str | None, rules: Rules) -> list[Entry]:
    """Sudoku or Takuzu lines; with ``puzzle`` None the file is read as both, and it must be
    exactly one of them (a file both readers accept is refused: say which with --puzzle)."""
    if puzzle not in (None, *PUZZLES):
        raise PuzzleError(f"the lines format holds only sudoku and takuzu puzzles, not {puzzle}")
    readers = {"sudoku": _read_sudoku, "takuzu": _read_takuzu}
    if puzzle is not None:
        return readers[puzzle](text, path, rules)
    read, failures = {}, []
    for kind, reader in readers.items():
        try:
            read[kind] = reader(text, path, rules)
        except PuzzleError as err:
            failures.append(err)
    if len(read) > 1:
        raise PuzzleError("every line reads both as a sudoku and as a takuzu (only 0, 1 and '.'): "
                          "say which with --puzzle sudoku or --puzzle takuzu")
    if read:
        return read.popitem()[1]
    raise max(failures, key=lambda err: err.line or 0)  # the reader that got furthest


def _read_sudoku(text: str, path: str, rules: Rules) -> list[Entry]:
    rules.require_applicable("sudoku")
    entries = []
    for line in content_lines(split_lines(text)):
        grids, others = _grid_words(line)
        name = str(len(entries) + 1)
        givens = grids[0]
        br, bc = rules.box_for(len(givens))
        sudoku = build_located(partial(Sudoku, givens, br, bc, name), [], line.number)
        extra = {"fields": others} if others else {}
        entries.append(Entry(sudoku, name, path, line.number, grids[1] if len(grids) > 1 else None, extra))
    return entries


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
        raise PuzzleError(f"expected a takuzu line of 0, 1 and '-' or '.' (blank)"
                          + (f", got the character {bad!r}" if bad else ""), line=line.number)
    puzzle = words[0]
    if shape is None:
        side = math.isqrt(len(puzzle))
        if side * side != len(puzzle):
            raise PuzzleError(f"a takuzu line of {len(puzzle)} characters is no square grid; "
                              "put its size RxC first", line=line.number)
        shape = (side, side)
    if len(puzzle) != shape[0] * shape[1]:
        raise PuzzleError(f"a {shape[0]}x{shape[1]} takuzu has {shape[0] * shape[1]} cells, "
                          f"the line has {len(puzzle)}", line=line.number)
    grid = np.array([_TAKUZU_VALUE[ch] for ch in puzzle], dtype=np.int64).reshape(shape)
    solution, others = None, words[1:]
    if others and len(others[0]) == len(puzzle) and set(others[0]) <= set("01"):
        solution = np.array([int(ch) for ch in others[0]], dtype=np.int64).reshape(shape)
        others = others[1:]
    return shape, grid, solution, others


def _read_takuzu(text: str, path: str, rules: Rules) -> list[Entry]:
    rules.require_applicable("takuzu")
    entries = []
    for line in content_lines(split_lines(text)):
        _, grid, solution, others = _takuzu_words(line)
        name = str(len(entries) + 1)
        takuzu = build_located(partial(Takuzu, grid, bool(rules.distinct_lines), name), [], line.number)
        extra = {"fields": others} if others else {}
        entries.append(Entry(takuzu, name, path, line.number, solution, extra))
    return entries


def read_solutions(text: str, puzzle) -> list[tuple[int, np.ndarray]]:
    """The solution for ``puzzle`` as [(line, grid)]: the only line's, or in a file of several
    lines the one of line number ``puzzle.name`` (1-based, lines counted without comments)."""
    if not isinstance(puzzle, (Sudoku, Takuzu)):
        raise PuzzleError(f"the lines format holds only sudoku, killer and takuzu solutions, not {puzzle.puzzle}")
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
        if isinstance(puzzle, Takuzu):
            _, grid, solution, _ = _takuzu_words(line, puzzle.shape)
            solutions.append((line.number, solution if solution is not None else grid))
            continue
        grids, _ = _grid_words(line, puzzle.n)
        solutions.append((line.number, grids[1] if len(grids) > 1 else grids[0]))
    return solutions


def encode(grid: np.ndarray) -> str:
    """A grid as one word, ``.`` for blanks."""
    return "".join(SYMBOLS[v - 1] if v > 0 else "." for v in np.asarray(grid).ravel().tolist())


def _takuzu_word(grid: np.ndarray) -> str:
    return "".join("-" if v < 0 else str(v) for v in np.asarray(grid).ravel().tolist())


def _takuzu_prefix(shape: tuple[int, int]) -> str:
    return "" if shape[0] == shape[1] else f"{shape[0]}x{shape[1]} "


def format_puzzle(puzzle) -> str:
    if isinstance(puzzle, Takuzu):
        if puzzle.distinct_lines:
            raise PuzzleError("the lines format cannot state the distinct rows and columns rule; use the native "
                              "format or the set option distinct_lines: true")
        return _takuzu_prefix(puzzle.shape) + _takuzu_word(puzzle.givens) + "\n"
    if isinstance(puzzle, KillerSudoku) or not isinstance(puzzle, Sudoku):
        raise PuzzleError(f"the lines format holds only sudoku and takuzu puzzles, not {puzzle.puzzle}")
    if not MIN_SIZE <= puzzle.n <= MAX_SUDOKU:
        raise PuzzleError(f"the lines format holds sudoku of size {MIN_SIZE}..{MAX_SUDOKU}, not {puzzle.n}")
    default = Rules().box_for(puzzle.n)
    if (puzzle.box_rows, puzzle.box_cols) != default:
        raise PuzzleError(f"the lines format cannot state the box shape {puzzle.box_rows}x{puzzle.box_cols} "
                          f"(it implies {default[0]}x{default[1]}); use the native format")
    return encode(puzzle.givens) + "\n"


def format_solution(puzzle, grid: np.ndarray) -> str:
    if isinstance(puzzle, Takuzu):
        if not np.isin(grid, (0, 1)).all():
            raise PuzzleError("a takuzu solution holds 0 and 1 only")
        return _takuzu_prefix(puzzle.shape) + _takuzu_word(grid) + "\n"
    if not isinstance(puzzle, Sudoku):
        raise PuzzleError(f"the lines format holds only sudoku, killer and takuzu solutions, not {puzzle.puzzle}")
    if ((grid < 0) | (grid > len(SYMBOLS))).any():
        raise PuzzleError(f"the lines format cannot write values outside 0..{len(SYMBOLS)}")
    return encode(grid) + "\n"
