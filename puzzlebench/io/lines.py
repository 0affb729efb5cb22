"""The lines format: Sudoku only, one puzzle per line, as in the classic benchmark lists.

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

A lines solution file holds one solution per line in the same alphabet (the
second grid word of a line if it has two, else the first); in a file of
several lines, the solution of puzzle "K" is on the K-th (non-comment) line.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ..errors import PuzzleError
from ..puzzles import KillerSudoku, Sudoku
from .entry import Entry
from .rules import MAX_SUDOKU, Rules
from .text import TextLine, build_located, content_lines, split_lines

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
    if puzzle not in (None, "sudoku"):
        raise PuzzleError(f"the lines format holds only sudoku puzzles, not {puzzle}")
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


def read_solutions(text: str, puzzle) -> list[tuple[int, np.ndarray]]:
    """The solution for a Sudoku or Killer ``puzzle`` as [(line, grid)]: the only line's, or
    in a file of several lines the one of line number ``puzzle.name`` (1-based, lines counted
    without comments)."""
    if not isinstance(puzzle, Sudoku):
        raise PuzzleError(f"the lines format holds only sudoku and killer solutions, not {puzzle.puzzle}")
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
        grids, _ = _grid_words(line, puzzle.n)
        solutions.append((line.number, grids[1] if len(grids) > 1 else grids[0]))
    return solutions


def encode(grid: np.ndarray) -> str:
    """A grid as one word, ``.`` for blanks."""
    return "".join(SYMBOLS[v - 1] if v > 0 else "." for v in np.asarray(grid).ravel().tolist())


def format_puzzle(puzzle) -> str:
    if isinstance(puzzle, KillerSudoku) or not isinstance(puzzle, Sudoku):
        raise PuzzleError(f"the lines format holds only sudoku puzzles, not {puzzle.puzzle}")
    if not MIN_SIZE <= puzzle.n <= MAX_SUDOKU:
        raise PuzzleError(f"the lines format holds sudoku of size {MIN_SIZE}..{MAX_SUDOKU}, not {puzzle.n}")
    default = Rules().box_for(puzzle.n)
    if (puzzle.box_rows, puzzle.box_cols) != default:
        raise PuzzleError(f"the lines format cannot state the box shape {puzzle.box_rows}x{puzzle.box_cols} "
                          f"(it implies {default[0]}x{default[1]}); use the native format")
    return encode(puzzle.givens) + "\n"


def format_solution(puzzle, grid: np.ndarray) -> str:
    if not isinstance(puzzle, Sudoku):
        raise PuzzleError(f"the lines format holds only sudoku and killer solutions, not {puzzle.puzzle}")
    if ((grid < 0) | (grid > len(SYMBOLS))).any():
        raise PuzzleError(f"the lines format cannot write values outside 0..{len(SYMBOLS)}")
    return encode(grid) + "\n"
