"""``puzzlebench import``: turn public puzzle files into a validated instance set.

Every SOURCE (a file, or a folder whose files are read in name order) is read
first, with its reference solutions (those in the file, or every grid of a
companion ``<stem>.solution<suffix>``).  Then everything is checked before
anything is written: each puzzle reads, agrees with the rule options given
(``--box`` against a box the file states), reads back from the file it will
be written as, and each reference solution keeps the rules; with ``--unique``
a solver certifies each puzzle has one solution, and that solution becomes
its reference solution when the file gives none.  A puzzle that fails any of
these refuses the import (exit 2, one line naming file:line and the problem,
nothing written) or, with ``--skip-invalid``, is left out and listed.  Then
the set folder gets one native file per puzzle (``<stem>.txt`` and
``<stem>.solution.txt`` with its solutions) or, with ``--keep-files``, the
source files unchanged (a file with a refused puzzle is left out whole) and
a ``set.yaml`` that says how to read them; ``set.yaml`` carries the
``source`` and ``licence`` given as options and ``SOURCE.md`` is a stub to
complete.  Last, ``validate`` reads the new set; its exit code is the
command's.
"""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from pathlib import Path

_STEM = re.compile(r"[^A-Za-z0-9_.-]+")
FOUND = "solution_found"
"""``Entry.extra`` key marking a reference solution that ``--unique`` found (the file gives none)."""


HELP = "make a validated instance set from puzzle files in any layout"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    from ..io import FORMATS
    from ..kinds import names as puzzle_names
    from ._common import add_layout_arguments, seconds
    p = sub.add_parser("import", help=HELP,
                       description="Read SOURCE files (or folders of them) in any format puzzlebench reads, "
                                   "check every puzzle and reference solution, then write them as an instance "
                                   "set in DIR (instances/<puzzle>/<set>) with set.yaml and a SOURCE.md stub, "
                                   "and validate it. Nothing is written when a puzzle is refused, unless "
                                   "--skip-invalid leaves it out.")
    p.add_argument("sources", nargs="+", metavar="SOURCE", help="puzzle file or folder of puzzle files")
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="the set folder to create, instances/<puzzle>/<set> (must be new or empty)")
    p.add_argument("--puzzle", choices=puzzle_names(), help="puzzle type (default: the folder's group, or the files')")
    p.add_argument("--format", choices=FORMATS, help="format of the sources (default: detected per file)")
    add_layout_arguments(p)
    p.add_argument("--distinct", action="store_true", help="Takuzu: rows and columns must be distinct")
    p.add_argument("--diagonal", action="store_true", help="Killer-X: both diagonals hold 1..N")
    p.add_argument("--box", metavar="RxC", help="Sudoku/Killer box shape when it is not the squarest")
    p.add_argument("--source", required=True, help="set.yaml source: where the puzzles come from, one line")
    p.add_argument("--licence", required=True, help="set.yaml licence: the licence the puzzles are under")
    p.add_argument("--tags", nargs="+", default=[], metavar="TAG", help="set.yaml tags")
    p.add_argument("--keep-files", action="store_true",
                   help="copy the source files unchanged (one multi-puzzle file stays one file) "
                        "instead of writing one native file per puzzle")
    p.add_argument("--skip-invalid", action="store_true",
                   help="leave out (and list, with file:line and the reason) the puzzles that are refused, "
                        "instead of refusing the import")
    p.add_argument("--unique", action="store_true",
                   help="certify each puzzle has one solution (and keep it as the reference solution)")
    p.add_argument("--solver", default="highs", help="solver for --unique (default highs)")
    p.add_argument("--formulation",
                   help="formulation for --unique (default: the one the kind's generator certifies with, "
                        "e.g. combinations for Killer, xor-distinct for Takuzu; binary for a kind without one)")
    p.add_argument("--time-limit", type=seconds, default=60.0, help="seconds per solve for --unique (default 60)")
    p.set_defaults(func=run)


@dataclass
class SourceFile:
    """One source file: the puzzles read from it and the ones refused (located PuzzleErrors)."""

    path: Path
    entries: list = field(default_factory=list)
    refused: list = field(default_factory=list)


def _source_files(sources: list[str]) -> list[Path]:
    """The files of the sources: each file, and each folder's puzzle files in name order."""
    from ..errors import PuzzleError
    from ..io.sets import SKIPPED_FILES
    files = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            found = sorted(p for p in path.iterdir()
                           if p.is_file() and not any(fnmatchcase(p.name.lower(), s) for s in SKIPPED_FILES))
            if not found:
                raise PuzzleError(f"{source}: the folder holds no puzzle file")
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise PuzzleError(f"{source}: no such file or folder")
    return files


def _options(args) -> dict:
    from ..toolkit.rules import parse_box
    options = {}
    if args.distinct:
        options["distinct_lines"] = True
    if args.diagonal:
        options["diagonal"] = True
    if args.box:
        parse_box(args.box)
        options["box"] = args.box
    return options


def companion_of(path: Path) -> Path:
    return path.with_name(f"{path.stem}.solution{path.suffix}")


def read_sources(files: list[Path], puzzle, format, options: dict, layout: dict) -> list[SourceFile]:
    """Every source file's puzzles, reference solutions from companion files filled in; a file that
    does not read at all is refused whole (its one error in ``refused``, no entries)."""
    from ..errors import PuzzleError
    from ..io import read_puzzles_keeping, read_reference_solutions
    read = []
    for path in files:
        source = SourceFile(path)
        try:
            source.entries, source.refused = read_puzzles_keeping(path, format=format, puzzle=puzzle,
                                                                  options=options, layout=layout)
            companion = companion_of(path)
            if companion.is_file() and source.entries:
                solutions = read_reference_solutions(companion, [e.puzzle for e in source.entries])
                source.entries = [replace(e, solutions=grids) if not e.solutions else e
                                  for e, grids in zip(source.entries, solutions, strict=True)]
        except PuzzleError as err:
            source.entries, source.refused = [], [err.locate(str(path))]
        read.append(source)
    return read


def _problem(entry, message: str):
    from ..errors import PuzzleError
    return PuzzleError(message, path=entry.source, line=entry.line)


def check_entries(read: list[SourceFile], args, box) -> None:
    """Move every puzzle that breaks a check into its file's ``refused``: a box other than --box, a
    reference solution that breaks the rules, a puzzle whose native text does not read back."""
    from ..checker import check
    from ..errors import PuzzleError
    from ..io import format_puzzle
    from ..kinds import kind_key
    from ..io.native import read as read_native
    from ..toolkit.rules import parse_rules
    for source in read:
        kept = []
        for entry in source.entries:
            p = entry.puzzle
            if box is not None and hasattr(p, "box_rows") and (p.box_rows, p.box_cols) != box:
                source.refused.append(_problem(entry, f"the puzzle's boxes are {p.box_rows}x{p.box_cols} "
                                                      f"(as the file states), not --box {args.box}"))
                continue
            wrong = next(((k, v) for k, s in enumerate(entry.solutions, 1) for v in check(p, s)[:1]), None)
            if wrong is not None:
                k, violation = wrong
                label = f"reference solution {k} of {len(entry.solutions)}" if len(entry.solutions) > 1 \
                    else "the reference solution"
                source.refused.append(_problem(entry, f"{label} is wrong: {violation}"))
                continue
            if not args.keep_files:
                try:
                    back = read_native(format_puzzle(p, "native"), "", None, parse_rules(None))
                    same = len(back) == 1 and not isinstance(back[0], PuzzleError) and \
                        kind_key(back[0].puzzle) == kind_key(p)
                except PuzzleError as err:
                    same, back = False, [err]
                if not same:
                    why = back[0].problem if back and isinstance(back[0], PuzzleError) else "it reads back differently"
                    source.refused.append(_problem(entry, f"cannot be written as a native file: {why}"))
                    continue
            kept.append(entry)
        source.entries = kept


def certify(read: list[SourceFile], uniqueness, report) -> None:
    """Count each kept puzzle's solutions (up to 2): one -> kept, its solution stored when the file
    gives none; else the puzzle is refused.  Tallies go to ``report``."""
    import numpy as np
    for source in read:
        kept = []
        for entry in source.entries:
            found, grids, status = uniqueness.count(entry.puzzle)
            problem = report.add_count(found, status)
            if problem is None and entry.solutions and not any(np.array_equal(grids[0], s) for s in entry.solutions):
                problem = "the only solution found differs from the reference solution"
            if problem is not None:
                source.refused.append(_problem(entry, problem))
                continue
            kept.append(entry if entry.solutions else
                        replace(entry, solutions=(np.asarray(grids[0]),), extra={**entry.extra, FOUND: True}))
        source.entries = kept


def _stems(read: list[SourceFile]) -> list[tuple[str, object]]:
    """A file stem for every puzzle: the source's stem, plus the puzzle's name when the file holds several."""
    seen: set[str] = set()
    named = []
    for source in read:
        several = len(source.entries) + len(source.refused) > 1
        for entry in source.entries:
            stem = f"{source.path.stem}-{entry.name}" if several else source.path.stem
            stem = _STEM.sub("_", stem).strip("._") or "puzzle"
            unique, k = stem, 2
            while unique.lower() in seen:
                unique, k = f"{stem}-{k}", k + 1
            seen.add(unique.lower())
            named.append((unique, entry))
    return named


def set_yaml(meta: dict) -> str:
    import yaml
    return ("# Written by puzzlebench import; complete SOURCE.md.\n"
            + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, default_flow_style=False))


def source_md(name: str, args, files: list[Path], count: int, skipped: list) -> str:
    command = shlex.join(["puzzlebench", "import", *sys.argv[2:]]) if sys.argv[1:2] == ["import"] else ""
    listing = "".join(f"- `{f}`\n" for f in files)
    left_out = "".join(f"- {err}\n" for err in skipped)
    return (f"# {name}\n\n"
            f"- Source: {args.source}\n- Licence: {args.licence}\n- Puzzles: {count}\n\n"
            f"Imported from\n\n{listing}\n"
            + (f"with\n\n    {command}\n\n" if command else "")
            + (f"Left out (--skip-invalid):\n\n{left_out}\n" if skipped else "")
            + "TODO: the repository, commit and path of each file; what was taken, and the exact rule "
              "that drew a subset; the format's quirks.\n")


def _solutions_text(entry) -> str:
    from ..io import format_solution
    return "\n".join(format_solution(entry.puzzle, s, "native") for s in entry.solutions)


def _write(out: Path, read: list[SourceFile], args, layout: dict) -> dict:
    """Write the set's puzzle files; the ``set.yaml`` keys that say how to read them."""
    from ..io import format_puzzle
    meta = {}
    if args.keep_files:
        for source in read:
            if not source.entries:
                continue
            shutil.copyfile(source.path, out / source.path.name)
            companion = companion_of(source.path)
            if companion.is_file():
                shutil.copyfile(companion, out / companion.name)
            elif any(e.extra.get(FOUND) for e in source.entries):  # a companion of one grid per puzzle
                grids = [replace(e, solutions=e.solutions[:1]) for e in source.entries] \
                    if len(source.entries) > 1 else source.entries
                (out / companion.name).write_text("\n".join(_solutions_text(e) for e in grids), encoding="utf-8")
        if args.format:
            meta["format"] = args.format
        meta.update(layout)
        return meta
    for stem, entry in _stems(read):
        (out / f"{stem}.txt").write_text(format_puzzle(entry.puzzle, "native"), encoding="utf-8")
        if entry.solutions:
            (out / f"{stem}.solution.txt").write_text(_solutions_text(entry), encoding="utf-8")
    return meta


def run(args) -> int:
    from ..errors import PuzzleError
    from ..system.atomic import writing_folder
    from ..toolkit.rules import parse_box
    from ..io.sets import SET_FILE, load_set
    from ..run.validation import SetReport, Uniqueness, validate_set
    from ..kinds import get_kind
    from ..kinds import names as puzzle_names
    from ..registry import get_formulation, get_solver
    from ._common import layout_of

    out = Path(args.output)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PuzzleError(f"{out}: exists and is not an empty folder; import writes a new set")
    puzzle = args.puzzle or (out.parent.name if out.parent.name in puzzle_names() else None)
    layout = layout_of(args)
    options = _options(args)
    files = _source_files(args.sources)
    if args.keep_files:
        names = [p.name.lower() for p in files]
        if len(set(names)) != len(names):
            raise PuzzleError("--keep-files: two sources have the same file name")
    read = read_sources(files, puzzle, args.format, options, layout)
    kinds = sorted({e.puzzle.puzzle for source in read for e in source.entries})
    if len(kinds) > 1:
        raise PuzzleError(f"the sources hold {' and '.join(kinds)} puzzles; a set holds one puzzle type")
    check_entries(read, args, parse_box(args.box) if args.box else None)
    puzzle = kinds[0] if kinds else puzzle
    certifying = get_kind(puzzle).certifying_formulation if puzzle else None
    formulation = args.formulation or certifying or "binary"
    certified = SetReport("")
    if args.unique and kinds:
        get_solver(args.solver)
        get_formulation(puzzle, formulation)
        uniqueness = Uniqueness(formulation, args.solver, args.time_limit)
        try:
            certify(read, uniqueness, certified)
        finally:
            uniqueness.close()
    _refuse_or_skip(read, args)

    count = sum(len(source.entries) for source in read)
    name = f"{out.parent.name}/{out.name}"
    skipped = [err for source in read for err in source.refused]
    with writing_folder(out) as folder:  # the set appears whole or not at all
        meta = {"puzzle": puzzle, **_write(folder, read, args, layout)}
        meta.update({"source": args.source, "licence": args.licence, "count": count})
        if options:
            meta["options"] = options
        if args.tags:
            meta["tags"] = list(args.tags)
        (folder / SET_FILE).write_text(set_yaml(meta), encoding="utf-8")
        (folder / "SOURCE.md").write_text(source_md(name, args, files, count, skipped), encoding="utf-8")
    solved = sum(len(e.solutions) for source in read for e in source.entries)
    print(f"wrote {out}: {count} {puzzle} puzzle(s), {solved} reference solution(s)"
          + (f", {len(skipped)} left out" if skipped else ""))

    report = validate_set(load_set(name, out), lambda line: print(line))
    report.unique, report.not_unique, report.uncertified = certified.unique, 0, 0
    print(report.summary(args.unique))
    return report.exit_code


def _refuse_or_skip(read: list[SourceFile], args) -> None:
    """Without --skip-invalid, the first refused puzzle refuses the import (the others counted);
    with it, list every refused puzzle on stderr and, with --keep-files, drop each file that has one."""
    from ..errors import PuzzleError
    refused = [err for source in read for err in source.refused]
    if refused and not args.skip_invalid:
        more = f" (and {len(refused) - 1} more refused; --skip-invalid imports the rest)" if len(refused) > 1 else \
            " (--skip-invalid imports the rest)" if any(source.entries for source in read) else ""
        raise PuzzleError(f"{refused[0]}{more}")
    for source in read:
        if args.keep_files and source.refused and source.entries:
            source.refused.append(PuzzleError(f"left out whole: --keep-files copies files unchanged and "
                                              f"{len(source.refused)} of its puzzles are refused",
                                              path=str(source.path)))
            source.entries = []
    for source in read:
        for err in source.refused:
            print(f"skipped: {err}", file=sys.stderr)
    if not any(source.entries for source in read):
        raise PuzzleError("no puzzle is left to import: every one was refused")
