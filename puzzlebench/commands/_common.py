"""Arguments shared by verbs that read puzzle files."""

from __future__ import annotations

from ..puzzles import PUZZLE_NAMES


def add_input_arguments(p, *, multi: bool = False) -> None:
    """PATH plus --index/--format/--puzzle (and --all when ``multi``)."""
    from ..io import FORMATS
    p.add_argument("path", metavar="PATH", help="puzzle file")
    if multi:
        which = p.add_mutually_exclusive_group()
        which.add_argument("--index", type=int, default=0, help="0-based puzzle index in the file (default 0)")
        which.add_argument("--all", action="store_true", help="every puzzle of the file, in one process")
    else:
        p.add_argument("--index", type=int, default=0, help="0-based puzzle index in the file (default 0)")
    p.add_argument("--format", choices=FORMATS, help="file format (default: detected)")
    p.add_argument("--puzzle", choices=PUZZLE_NAMES, help="puzzle type, when the file does not say")


def read_entries(args):
    """The entries the arguments select: all of them with --all, else the one at --index."""
    from ..errors import PuzzleError
    from ..io import read_puzzles
    entries = read_puzzles(args.path, format=args.format, puzzle=args.puzzle)
    if getattr(args, "all", False):
        return entries
    if not 0 <= args.index < len(entries):
        raise PuzzleError(f"--index {args.index} is out of range: the file holds {len(entries)} "
                          f"puzzle(s)", path=args.path)
    return [entries[args.index]]


def solver_config(args):
    """The solver configuration of --solver, --solver-option and --solver-name, its options checked
    on the solver (a bad one is a PuzzleError: one line, exit 2)."""
    from ..solver_configs import SolverConfig, check, parse_options, resolve
    config = resolve(args.solver).with_options(parse_options(args.solver_option))
    if args.solver_name:
        config = SolverConfig(args.solver_name, config.adapter, config.options, config.description)
    check(config)
    return config
