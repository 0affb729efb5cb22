"""``puzzlebench draw``: a picture of a puzzle, optionally with its solution, as PNG, SVG or PDF."""

from __future__ import annotations


HELP = "draw a puzzle (and a solution) as PNG, SVG or PDF"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    from ._common import add_input_arguments
    p = sub.add_parser("draw", help=HELP,
                       description="Draw the puzzle of PATH; givens in bold black, the solution (from "
                                   "SOLUTION_FILE, or the file's own with --solved) in blue.")
    add_input_arguments(p)
    p.add_argument("solution", nargs="?", metavar="SOLUTION_FILE", help="solution file to fill in")
    p.add_argument("--solved", action="store_true",
                   help="fill in the reference solution held in PATH itself")
    p.add_argument("-o", "--output", required=True, help="output file: .png, .svg or .pdf")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..draw import save_drawing
    from ..errors import PuzzleError
    from ..io import read_solution
    from ._common import read_entries

    entry = read_entries(args)[0]
    if args.solution and args.solved:
        raise PuzzleError("give either SOLUTION_FILE or --solved, not both")
    solution = None
    if args.solution:
        solution = read_solution(args.solution, entry.puzzle)
    elif args.solved:
        if entry.solution is None:
            raise PuzzleError("--solved: the file holds no solution for this puzzle", path=args.path)
        solution = entry.solution
    save_drawing(entry.puzzle, solution, args.output)
    print(f"wrote {args.output}")
    return 0
