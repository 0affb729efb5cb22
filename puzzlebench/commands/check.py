"""``puzzlebench check``: is a solution grid valid for a puzzle?"""

from __future__ import annotations

from ..checker import check
from ..io import FORMATS, read_puzzle, read_solution
from ..puzzles import PUZZLE_NAMES
from ._common import index


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "check", help="check a solution grid against a puzzle's rules",
        description="Check SOLUTION_FILE against puzzle number --index of PUZZLE_FILE. Prints every "
                    "rule violation on its own line, or 'valid'. Exit status: 0 valid, 1 violations, "
                    "2 bad input.")
    p.add_argument("puzzle_file", metavar="PUZZLE_FILE")
    p.add_argument("solution_file", metavar="SOLUTION_FILE",
                   help="a solution in native, lines or janko format (may be the same file as the "
                        "puzzle for datasets that carry solutions)")
    p.add_argument("--index", type=index, default=0, metavar="K",
                   help="which puzzle of PUZZLE_FILE, counting from 0 (default 0)")
    p.add_argument("--format", choices=FORMATS, help="format of PUZZLE_FILE (default: detected)")
    p.add_argument("--solution-format", choices=FORMATS, help="format of SOLUTION_FILE (default: detected)")
    p.add_argument("--puzzle", choices=PUZZLE_NAMES, help="the puzzle type, if the file does not say")
    p.add_argument("--box", metavar="RxC", help="Sudoku/Killer box shape, e.g. 2x3 (if the file does not say)")
    p.add_argument("--diagonal", action="store_true", help="Killer: both diagonals hold every digit")
    p.add_argument("--distinct-lines", action="store_true", help="Takuzu: rows and columns pairwise distinct")
    p.set_defaults(func=run)


def run(args) -> int:
    options = {name: value for name, value in (("box", args.box), ("diagonal", args.diagonal),
                                               ("distinct_lines", args.distinct_lines)) if value}
    entry = read_puzzle(args.puzzle_file, args.index, format=args.format, puzzle=args.puzzle, options=options)
    grid = read_solution(args.solution_file, entry.puzzle, format=args.solution_format)
    violations = check(entry.puzzle, grid)
    print("\n".join(violations) if violations else "valid")
    return 1 if violations else 0
