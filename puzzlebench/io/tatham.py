"""Simon Tatham's game IDs (Portable Puzzle Collection): Solo and Unruly, one ID per line.

An ID is ``PARAMS:DESC``; ``#`` comment lines and blank lines are skipped and
IDs are named by their 1-based index.

Solo (Sudoku, Killer).  ``CxR`` gives boxes of C rows by R columns (Tatham
counts C columns and R rows *of boxes*), so the grid is CR x CR: ``3x3``,
``2x3`` (6x6, boxes 2 rows x 3 columns), ``3x4``.  Flags after the size:
``k`` Killer, ``x`` both diagonals hold every digit (accepted for Killer
only), ``j`` jigsaw (not supported); symmetry and difficulty letters are
ignored.  DESC is the grid row-major: a number is a given (numbers written
next to each other are separated by ``_``), a letter ``a``..``z`` is a run of
1..26 blanks.  A Killer DESC is ``grid,cages,sums``: ``cages`` lists the
2*CR*(CR-1) cell boundaries -- first those between horizontal neighbours in
reading order, then those between vertical neighbours column by column --
as run lengths: ``_`` is a wall, ``a``..``y`` are 1..25 open boundaries
followed by a wall, and ``z`` 26 open boundaries with no wall (as Solo's
decoder reads it; Solo's encoder writes ``z`` for 25, so the two disagree on
runs longer than 25, which 9x9 cage layouts cannot have); ``sums`` is a grid
like the first whose numbers are the cage sums, each in one cell of its cage.

Unruly (Takuzu).  ``WxH`` gives W columns and H rows; ``u`` right after the
size means rows and columns must be distinct (Takuzu ``distinct_lines``).
DESC walks the cells row-major: a lower-case letter skips 0..24 cells
(``a``..``y``) and then places a 0, an upper-case one does the same with a
1, and ``z``/``Z`` skips 25 cells; one final letter lands just past the end.

Rule markers in the ID (``x``, ``u``) take precedence over instance-set
options; when absent, the options apply.  Game IDs hold no solutions.

Keen (KenKen) IDs are not this format's: a line that a kind's own format claims
(the kenken kind's ``keen``: ``6:BLOCKS,CLUES`` with ``a``/``m``/``s``/``d`` clues) is
refused naming that format, and ``--puzzle kenken`` is refused naming the formats that
hold KenKen.  Keen's block code is Solo's cage code with repeat counts:
:func:`decode_block_structure` reads both.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import PuzzleError
from ..kinds import kind_of
from ..puzzles import KillerSudoku, Sudoku, Takuzu, digit_sum_range
from .entry import Entry
from .regions import cages_from_index, canonical_index, label_regions
from .rules import MAX_SUDOKU, Rules
from .text import MAX_SIDE, build_located, content_lines, split_lines

PUZZLES = ("sudoku", "killer", "takuzu")

ID = re.compile(r"([0-9]{1,3})(?:x([0-9]{1,3}))?([a-z0-9]*):(.*)")
_SOLO_TOKEN = re.compile(r"[a-z]|_|[1-9][0-9]*|.")


def read(text: str, path: str, puzzle: str | None, rules: Rules, layout=None) -> list:
    if puzzle not in (None, *PUZZLES):
        from . import formats_holding
        raise PuzzleError(f"the tatham format holds only Solo and Unruly IDs (sudoku, killer and takuzu), not "
                          f"{puzzle}; {puzzle} is read by the {', '.join(formats_holding(puzzle))} format(s)")
    entries = []
    for line in content_lines(split_lines(text)):
        name = str(len(entries) + 1)
        try:
            _refuse_claimed(line.text)
            p = parse_id(line.text, puzzle, rules, name)
        except PuzzleError as err:
            entries.append(err.locate(None, line.number))
            continue
        entries.append(Entry(p, name, path, line.number))
    return entries


def _refuse_claimed(game_id: str) -> None:
    """An ID that a puzzle kind's own format claims (a Keen ID of the kenken kind's ``keen`` format) is
    refused naming that format: it is never read as a Solo or Unruly ID."""
    from . import claiming_formats
    claimed = claiming_formats(game_id)
    if claimed:
        fmt, kind = claimed[0]
        raise PuzzleError(f"this is a {kind} ID of the {fmt} format, not a Solo or Unruly ID (the tatham format "
                          f"holds sudoku, killer and takuzu): read it with --format {fmt} or --puzzle {kind}")


def parse_id(game_id: str, puzzle: str | None, rules: Rules, name: str = ""):
    """The puzzle of one Solo or Unruly game ID."""
    match = ID.fullmatch(game_id)
    if not match:
        raise PuzzleError(f"not a Tatham game ID 'PARAMS:DESC' such as '3x3:...' or '8x8u:...': {game_id[:40]!r}")
    first, second, flags, desc = match[1], match[2], match[3], match[4]
    a, b = int(first), int(second or first)
    if puzzle == "kakuro":
        raise PuzzleError("Tatham's collection has no Kakuro")
    game = {"takuzu": "unruly", "sudoku": "solo", "killer": "solo"}.get(puzzle) or _guess_game(a, b, flags, desc)
    if game == "unruly":
        rules.require_applicable("takuzu")
        return _unruly(a, b, flags, desc, rules, name)
    p = _solo(a, b, flags, desc, rules, name)
    if puzzle is not None and puzzle != p.puzzle:
        raise PuzzleError(f"this Solo ID holds a {p.puzzle} puzzle, not {puzzle}")
    return p


def _guess_game(a: int, b: int, flags: str, desc: str) -> str:
    """Solo or Unruly, from the ID alone (see the module docstring for both encodings)."""
    if re.search(r"[0-9_,]", desc) or set(flags) & set("kj") or a % 2 or b % 2:
        return "solo"  # Unruly sides are even
    if re.search(r"[A-Z]", desc) or flags.startswith("u"):
        return "unruly"
    solo_cells = sum(ord(ch) - 96 for ch in desc if "a" <= ch <= "z")
    return "solo" if solo_cells == (a * b) ** 2 else "unruly"


# ---------------------------------------------------------------- Solo

def _solo(c: int, r: int, flags: str, desc: str, rules: Rules, name: str):
    n = c * r
    if "j" in flags:
        raise PuzzleError("jigsaw Solo puzzles (irregular boxes) are not supported")
    if not 1 <= n <= MAX_SUDOKU:
        raise PuzzleError(f"Solo size {c}x{r} gives a {n}x{n} grid; at most {MAX_SUDOKU}x{MAX_SUDOKU} is supported")
    killer, diagonal = "k" in flags, "x" in flags
    if diagonal and not killer:
        raise PuzzleError("Solo's X (diagonal) rule is supported for Killer puzzles only ('xk')")
    rules = rules.overridden(box=(c, r), diagonal=True if diagonal else None)
    rules.require_applicable("killer" if killer else "sudoku")
    parts = desc.split(",")
    if len(parts) != (3 if killer else 1):
        raise PuzzleError("a Killer Solo ID has three comma-separated parts: grid,cages,sums" if killer
                          else "a Solo ID without 'k' has a single grid part (no commas)")
    givens = _decode_numbers(parts[0], n * n, n, "grid").reshape(n, n)
    if not killer:
        return build_located(lambda: Sudoku(givens, c, r, name), [], None)
    labels = _decode_cages(parts[1], n)
    index, _ = label_regions(labels.tolist())
    sums = _decode_numbers(parts[2], n * n, n * n * n, "cage sums").reshape(n, n)
    totals = []
    for k in range(int(index.max()) + 1):
        cells = np.argwhere(index == k)
        found = sums[index == k]
        found = found[found > 0]
        where = f"the cage at row {cells[0][0] + 1}, column {cells[0][1] + 1}"
        if len(found) != 1:
            raise PuzzleError(f"{where} has {len(found)} sums, expected one")
        lo, hi = digit_sum_range(len(cells), n)
        if len(cells) > n or not lo <= found[0] <= hi:
            raise PuzzleError(f"{where} has {len(cells)} cells and cannot sum to {found[0]}")
        totals.append(int(found[0]))
    cages = cages_from_index(index, totals)
    return build_located(lambda: KillerSudoku(givens, c, r, name, cages=cages, diagonal=bool(rules.diagonal)),
                         [], None)


def _decode_numbers(spec: str, area: int, largest: int, what: str) -> np.ndarray:
    """A Solo run-length grid: numbers 1..largest, letters for runs of blanks (0)."""
    cells: list[int] = []
    for token in _SOLO_TOKEN.findall(spec):
        if "a" <= token <= "z" and len(token) == 1:
            cells.extend([0] * (ord(token) - 96))
        elif token[0] in "123456789":
            value = int(token) if len(token) <= 6 else largest + 1
            if value > largest:
                raise PuzzleError(f"the {what} part has the number {token[:8]}, larger than {largest}")
            cells.append(value)
        elif token != "_":
            raise PuzzleError(f"the {what} part has the character {token!r}")
        if len(cells) > area:
            raise PuzzleError(f"the {what} part describes more than the {area} cells of the grid")
    if len(cells) < area:
        raise PuzzleError(f"the {what} part describes {len(cells)} cells, expected {area}")
    return np.array(cells, dtype=np.int64)


def _boundary(pos: int, n: int) -> tuple[int, int]:
    """The two flat cells either side of Solo's cell boundary number ``pos``."""
    if pos < n * (n - 1):
        y, x = divmod(pos, n - 1)
        return y * n + x, y * n + x + 1
    x, y = pos // (n - 1) - n, pos % (n - 1)
    return y * n + x, (y + 1) * n + x


_BLOCK_TOKEN = re.compile(r"([_a-z])([0-9]*)|(.)")


def decode_block_structure(spec: str, n: int, repeats: bool = False, what: str = "cages") -> np.ndarray:
    """Tatham's block code (Solo's cages, Keen's blocks) -> a grid labelling each cell by a
    representative cell of its block.  ``spec`` lists the 2*n*(n-1) cell boundaries in the order of
    :func:`_boundary` as runs: ``_`` a wall, ``a``..``y`` 1..25 open boundaries and a wall, ``z`` 26
    open boundaries and no wall; with ``repeats`` (Keen) a count after a character repeats it
    (``_10`` is ten walls, ``a4`` is ``aaaa``).  ``what`` names the part in messages."""
    boundaries = 2 * n * (n - 1)
    parent = list(range(n * n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    pos = 0
    for match in _BLOCK_TOKEN.finditer(spec):
        ch, count = match[1], match[2]
        if ch is None or (count and not repeats):
            raise PuzzleError(f"the {what} part has the character {(match[3] or count[0])!r}")
        times = int(count[:6]) if count else 1
        if times == 0:
            raise PuzzleError(f"the {what} part repeats {ch!r} 0 times")
        run = 0 if ch == "_" else ord(ch) - 96
        for _ in range(times):
            if pos + run > boundaries:
                raise PuzzleError(f"the {what} part describes more cell boundaries than the grid has")
            for p in range(pos, pos + run):
                a, b = _boundary(p, n)
                parent[find(a)] = find(b)
            pos += run + (run != 26)
    if pos != boundaries + 1:
        raise PuzzleError(f"the {what} part describes {min(pos, boundaries)} of the grid's {boundaries} "
                          "cell boundaries")
    return np.array([find(i) for i in range(n * n)]).reshape(n, n)


def _decode_cages(spec: str, n: int) -> np.ndarray:
    """Solo's cage boundary runs (no repeat counts) -> a grid labelling each cell by a representative
    cell of its cage."""
    return decode_block_structure(spec, n)


def _encode_numbers(values) -> str:
    out, run = [], 0
    for v in list(values) + [-1]:
        if v == 0:
            run += 1
            continue
        if run:
            while run > 0:
                step = min(run, 26)
                out.append(chr(96 + step))
                run -= step
        elif out and v > 0:
            out.append("_")
        if v > 0:
            out.append(str(v))
    return "".join(out)


def _encode_cages(index: np.ndarray) -> str:
    n = index.shape[0]
    flat = index.ravel()
    out, run = [], 0
    boundaries = 2 * n * (n - 1)
    for pos in range(boundaries + 1):
        if pos < boundaries:
            a, b = _boundary(pos, n)
            if flat[a] == flat[b]:
                run += 1
                continue
        while run >= 26:
            out.append("z")
            run -= 26
        out.append(chr(96 + run) if run else "_")
        run = 0
    return "".join(out)


# ---------------------------------------------------------------- Unruly

def _unruly(w: int, h: int, flags: str, desc: str, rules: Rules, name: str) -> Takuzu:
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise PuzzleError(f"Unruly size {w}x{h}: sides must be 1..{MAX_SIDE}")
    rules = rules.overridden(distinct_lines=True if flags.startswith("u") else None)
    size = w * h
    grid = np.full(size, -1, dtype=np.int64)
    pos = 0
    for ch in desc:
        if ch in "zZ":
            pos += 25
        elif "a" <= ch <= "y" or "A" <= ch <= "Y":
            pos += ord(ch.lower()) - 97
            if pos < size:
                grid[pos] = int(ch.isupper())
            pos += 1
        else:
            raise PuzzleError(f"the Unruly grid has the character {ch!r}")
        if pos > size + 1:
            raise PuzzleError(f"the Unruly grid describes more than the {size} cells of a {w}x{h} grid")
    if pos != size + 1:
        raise PuzzleError(f"the Unruly grid describes {min(pos, size)} cells, expected {size} and an end mark")
    return build_located(lambda: Takuzu(grid.reshape(h, w), bool(rules.distinct_lines), name), [], None)


def _encode_unruly(givens: np.ndarray) -> str:
    out, run = [], 0
    for v in givens.ravel().tolist() + [None]:
        if v == -1:
            run += 1
            continue
        while run >= 25:
            out.append("z")
            run -= 25
        out.append(chr((65 if v == 1 else 97) + run))
        run = 0
    return "".join(out)


# ---------------------------------------------------------------- writing

def format_puzzle(puzzle) -> str:
    kind = kind_of(puzzle).name
    if kind not in PUZZLES:
        raise PuzzleError(f"Tatham's collection has no {kind.capitalize()}; use the native or janko format")
    if kind == "takuzu":
        rows, cols = puzzle.shape
        return f"{cols}x{rows}{'u' if puzzle.distinct_lines else ''}:{_encode_unruly(puzzle.givens)}\n"
    size = f"{puzzle.box_rows}x{puzzle.box_cols}"
    grid = _encode_numbers(puzzle.givens.ravel().tolist())
    if kind == "sudoku":
        return f"{size}:{grid}\n"
    sums = np.zeros(puzzle.shape, dtype=np.int64)
    for cage in puzzle.cages:
        sums[min(cage.cells)] = cage.total
    flags = ("x" if puzzle.diagonal else "") + "k"
    return f"{size}{flags}:{grid},{_encode_cages(canonical_index(puzzle))},{_encode_numbers(sums.ravel().tolist())}\n"


def unsupported_solutions() -> PuzzleError:
    return PuzzleError("Tatham game IDs hold no solutions; write the solution in the native or lines format")
