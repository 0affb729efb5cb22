"""``puzzlebench check``: is a solution grid valid for a puzzle?"""

from __future__ import annotations

from ._common import index


HELP = "check a solution grid against a puzzle's rules"
"""The verb's line in ``puzzlebench --help``."""


def register(subparsers) -> None:
    from ._common import FORMATS, PUZZLES, add_layout_arguments
    p = subparsers.add_parser(
        "check", help=HELP,
        description="Check every grid of SOLUTION_FILE: for a PUZZLE_FILE of one puzzle, each grid "
                    "(alternative solutions) against it; for a file of several, each puzzle's grid (one per "
                    "puzzle in order in a native file, named by line or key otherwise), or only puzzle --index "
                    "(whose grids the file may hold alone). "
                    "Prints every rule violation on its own line, naming the grid, or 'valid'. Exit status: "
                    "0 valid, 1 violations, 2 bad input.")
    p.add_argument("puzzle_file", metavar="PUZZLE_FILE")
    p.add_argument("solution_file", metavar="SOLUTION_FILE",
                   help="a solution in native, lines, janko, kakuro-csv or killer-csv format (may be the same file as the "
                        "puzzle for datasets that carry solutions)")
    p.add_argument("--index", type=index, metavar="K",
                   help="only puzzle K of PUZZLE_FILE, counting from 0 (default: every puzzle)")
    p.add_argument("--format", choices=FORMATS, metavar="FORMAT",
                   help="format of PUZZLE_FILE, one of %(choices)s (default: detected)")
    p.add_argument("--solution-format", choices=FORMATS, metavar="FORMAT",
                   help="format of SOLUTION_FILE (default: detected)")
    p.add_argument("--puzzle", choices=PUZZLES, metavar="PUZZLE",
                   help="the puzzle type, one of %(choices)s, if the file does not say")
    p.add_argument("--box", metavar="RxC", help="Sudoku/Killer box shape, e.g. 2x3 (if the file does not say)")
    p.add_argument("--diagonal", action="store_true", help="Killer: both diagonals hold every digit")
    p.add_argument("--distinct-lines", action="store_true", help="Takuzu: rows and columns pairwise distinct")
    add_layout_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..checker import check
    from ..errors import PuzzleError
    from ..io import read_puzzles, read_solutions, read_solutions_for, read_solutions_of
    from ._common import layout_of
    options = {name: value for name, value in (("box", args.box), ("diagonal", args.diagonal),
                                               ("distinct_lines", args.distinct_lines)) if value}
    entries = read_puzzles(args.puzzle_file, format=args.format, puzzle=args.puzzle, options=options,
                           layout=layout_of(args))
    if args.index is not None and args.index >= len(entries):
        raise PuzzleError(f"--index {args.index} is out of range: the file holds {len(entries)} puzzle(s)",
                          path=args.puzzle_file)
    if len(entries) == 1:  # every grid of the file is a solution of the one puzzle
        grids = read_solutions(args.solution_file, entries[0].puzzle, format=args.solution_format)
        pairs = [(entries[0], f"solution {k} of {len(grids)}" if len(grids) > 1 else "", grid)
                 for k, grid in enumerate(grids, 1)]
    elif args.index is not None:  # that puzzle's grid of a file of one per puzzle, or the file's grids
        grids = read_solutions_for(args.solution_file, [e.puzzle for e in entries], args.index,
                                   format=args.solution_format)
        entry = entries[args.index]
        pairs = [(entry, f"puzzle {entry.name} (index {args.index})" + (f", solution {k} of {len(grids)}"
                                                                     if len(grids) > 1 else ""), grid)
                 for k, grid in enumerate(grids, 1)]
    else:
        solutions = read_solutions_of(args.solution_file, [e.puzzle for e in entries], format=args.solution_format)
        pairs = [(entry, f"puzzle {entry.name} (index {k})", grid)
                 for k, (entry, (_, grid)) in enumerate(zip(entries, solutions, strict=True))]
    problems = [f"{which}: {violation}" if which else violation
                for entry, which, grid in pairs for violation in check(entry.puzzle, grid)]
    print("\n".join(problems) if problems else "valid")
    return 1 if problems else 0
