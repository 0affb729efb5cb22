"""Instance sets: folders of puzzle files, with provenance, under the instance root.

A set is a folder ``<root>/<group>/<set>/`` named ``"<group>/<set>"`` (e.g.
``sudoku/top95``).  It holds puzzle files, a ``SOURCE.md`` and optionally a
``set.yaml`` saying how to read them::

    puzzle: sudoku       # required unless the group folder is a puzzle name
    format: lines        # optional: detected per file when absent
    files: ["*.txt"]     # optional globs; default: every file but SKIPPED_FILES
    source: "..."        # provenance, one line
    licence: "..."
    count: 95            # optional: how many puzzles the files hold
    options: {}          # rule options passed to the reader
    tags: [default]      # optional labels; select with the pattern "tag:NAME"; the tag
                         # "ladder" declares a size ladder (same kind of puzzle at growing
                         # sizes), the only sets growth exponents are fitted on
    dzn: {puzzle: x}     # optional: MiniZinc variable of each role, and convention: clue-cell (format dzn)
    csv: {cages: layout} # optional: column of each role (formats killer-csv, sudoku-csv)
    symbols: 0-9A-F      # optional: the grids' alphabet, when the files fit several
    size: 16x22          # optional: the grids' size, when the files do not say it

A folder without ``set.yaml`` is a set too, with the puzzle named by its group.
A puzzle file ``NAME.txt`` may have its reference solutions in ``NAME.solution.txt``: for a file of
one puzzle every grid it lists (a puzzle with several solutions); for a file of several puzzles,
one per puzzle in order (native), or named by line (lines) or key (dataset).
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from pathlib import Path

import yaml

from .._tree import TREE
from ..errors import PuzzleError
from ..kinds import names as puzzle_names, require_applicable
from ..toolkit.rules import parse_rules
from . import FORMATS, LAYOUT_KEYS, Entry, read_puzzles, read_reference_solutions, settings_of

SET_FILE = "set.yaml"
SKIPPED_FILES = ("set.yaml", "source.md", "readme*", "calibration.csv", "*.*solution*", ".*")
"""Name patterns (lower case) of the files that are not puzzle files by default: the set's
own files (its calibration, :mod:`puzzlebench.workflow.sampling`, among them), hidden files and companion
solution files (``x.solution.txt``, ``x.all_solutions.txt``)."""
SET_KEYS = ("puzzle", "format", "files", "source", "licence", "count", "options", "tags", *LAYOUT_KEYS)
TAG_PREFIX = "tag:"
LADDER_TAG = "ladder"


@dataclass(frozen=True)
class InstanceSet:
    """A named set of puzzle files and how to read them."""

    name: str
    path: Path
    puzzle: str
    format: str | None
    options: dict
    files: tuple[Path, ...]
    meta: dict

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(self.meta.get("tags") or ())

    @property
    def layout(self) -> dict:
        """The reader settings of ``set.yaml`` (``dzn:``, ``csv:``, ``symbols:``, ``size:``) for the set's files."""
        return {key: self.meta[key] for key in LAYOUT_KEYS if key in self.meta}

    def read_file(self, path: Path) -> list[Entry]:
        """The puzzles of one of the set's files, named ``<file>#<name in the file>``.

        A puzzle the file gives no solution for takes its reference solutions from
        the companion file ``<stem>.solution<suffix>`` when there is one.
        """
        entries = read_puzzles(path, format=self.format, puzzle=self.puzzle, options=self.options,
                               layout=self.layout)
        companion = path.with_name(f"{path.stem}.solution{path.suffix}")
        if _is_file(companion):
            _refuse_outside(companion, self.path)
            solutions = read_reference_solutions(companion, [e.puzzle for e in entries])
            entries = [replace(e, solutions=grids) if not e.solutions else e
                       for e, grids in zip(entries, solutions, strict=True)]
        prefix = path.relative_to(self.path).as_posix()
        return [replace(entry, name=f"{prefix}#{entry.name}") for entry in entries]

    def entries(self) -> list[Entry]:
        """Every puzzle of the set, file by file (each file read once)."""
        return [entry for path in self.files for entry in self.read_file(path)]

    def count(self) -> int:
        return len(self.entries())


def instances_root() -> Path:
    """``$PUZZLEBENCH_INSTANCES``, else the repository's ``instances/``, else ``./instances``."""
    if env := os.environ.get("PUZZLEBENCH_INSTANCES"):
        return Path(env)
    bundled = TREE / "instances"
    return bundled if bundled.is_dir() else Path("instances")


def discover_sets(root: str | Path | None = None) -> list[InstanceSet]:
    """Every set under ``root`` (default :func:`instances_root`), sorted by name."""
    return [load_set(name, folder) for name, folder in _set_folders(root).items()]


def get_set(name: str, root: str | Path | None = None) -> InstanceSet:
    """The set called ``name``; a PuzzleError listing the known sets when there is none."""
    folders = _set_folders(root)
    if name not in folders:
        raise PuzzleError(f"unknown instance set {name!r} (known: {_known(folders)})")
    return load_set(name, folders[name])


def select_sets(patterns: list[str], root: str | Path | None = None) -> list[InstanceSet]:
    """The sets matching any of ``patterns``, in pattern order, each once.

    A pattern is a set name, a glob over names (``"sudoku/*"``, ``"*/seed"``) or
    ``"tag:NAME"`` for the sets tagged NAME.  A pattern matching no set is an error.
    """
    folders = _set_folders(root)
    loaded: dict[str, InstanceSet] = {}
    chosen: dict[str, None] = {}
    for pattern in patterns:
        if pattern.startswith(TAG_PREFIX):
            for name, folder in folders.items():
                loaded.setdefault(name, load_set(name, folder))
            hits = [name for name in folders if pattern[len(TAG_PREFIX):] in loaded[name].tags]
        else:
            hits = [name for name in folders if fnmatchcase(name, pattern)]
        if not hits:
            raise PuzzleError(f"no instance set matches {pattern!r} (known: {_known(folders)})")
        chosen.update(dict.fromkeys(hits))
    return [loaded.get(name) or load_set(name, folders[name]) for name in chosen]


def ladder_set_names(root: str | Path | None = None) -> frozenset[str]:
    """The names of the sets tagged LADDER_TAG in their set.yaml (empty when the root has no sets)."""
    try:
        return frozenset(s.name for s in discover_sets(root) if LADDER_TAG in s.tags)
    except (PuzzleError, OSError):
        return frozenset()


def load_set(name: str, folder: Path) -> InstanceSet:
    """Read the set in ``folder`` (its ``set.yaml`` when there is one) as set ``name``."""
    yaml_path = folder / SET_FILE
    meta, lines = _read_yaml(yaml_path) if yaml_path.is_file() else ({}, {})

    def fail(key: str, problem: str):
        raise PuzzleError(f"{key}: {problem}", path=str(yaml_path), line=lines.get(key))

    for key in meta:
        if key not in SET_KEYS:
            fail(key, f"unknown key (known: {', '.join(SET_KEYS)})")
    puzzle = meta.get("puzzle", folder.parent.name)
    if puzzle not in puzzle_names():
        if "puzzle" not in meta:
            raise PuzzleError(f"{folder}: the folder's parent is no puzzle name, so {SET_FILE} must say "
                              f"'puzzle:' (one of {', '.join(puzzle_names())})")
        fail("puzzle", f"{puzzle!r} is no puzzle (known: {', '.join(puzzle_names())})")
    fmt = meta.get("format")
    if fmt is not None and fmt not in FORMATS:
        fail("format", f"{fmt!r} is no format (known: {', '.join(FORMATS)})")
    options = meta.get("options") or {}
    if not isinstance(options, dict):
        fail("options", "must be a mapping such as {distinct_lines: false}")
    try:
        require_applicable(parse_rules(options), puzzle)
    except PuzzleError as err:
        fail("options", err.problem)
    count = meta.get("count")
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 0):
        fail("count", f"must be a whole number, got {count!r}")
    for key in ("files", "tags"):
        value = meta.get(key)
        if value is not None and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            fail(key, "must be a list of strings such as [\"a\", \"b\"]")
    for key in ("source", "licence"):
        if key in meta and not isinstance(meta[key], str):
            fail(key, "must be a string")
    for key in LAYOUT_KEYS:
        if key in meta:
            try:
                settings_of({key: meta[key]})
            except PuzzleError as err:
                fail(key, err.problem)
    try:
        files = _set_files(folder, meta.get("files"))
    except PuzzleError as err:
        raise err.locate(str(yaml_path), lines.get("files")) from None
    return InstanceSet(name=name, path=folder, puzzle=puzzle, format=fmt, options=options,
                       files=files, meta=meta)


def _set_folders(root: str | Path | None) -> dict[str, Path]:
    """Set name -> folder for every set folder under ``root``, sorted by name.

    A set folder is a non-hidden folder two levels down holding a ``set.yaml``
    or at least one candidate puzzle file.
    """
    root = Path(root) if root is not None else instances_root()
    if not root.is_dir():
        raise PuzzleError(f"the instance folder {root} does not exist "
                          f"(set $PUZZLEBENCH_INSTANCES or pass --root)")
    folders = {}
    for group in _subfolders(root):
        for folder in _subfolders(group):
            if (folder / SET_FILE).is_file() or _default_files(folder):
                folders[f"{group.name}/{folder.name}"] = folder
    return folders


def _subfolders(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def _default_files(folder: Path) -> list[Path]:
    files = sorted(p for p in folder.iterdir()
                   if p.is_file() and not any(fnmatchcase(p.name.lower(), s) for s in SKIPPED_FILES))
    for path in files:
        _refuse_outside(path, folder)
    return files


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False for a name too long to exist (a companion name of a long file
    name), which made the whole set unreadable."""
    try:
        return path.is_file()
    except OSError as err:
        if err.errno == errno.ENAMETOOLONG:
            return False
        raise


def _refuse_outside(path: Path, folder: Path) -> None:
    """PuzzleError naming ``path`` when it is a link that leads out of the set ``folder`` (nothing of the
    target is read or echoed)."""
    if not path.resolve().is_relative_to(folder.resolve()):
        raise PuzzleError(f"a link that leads outside the set folder {folder}: not read", path=str(path))


def _set_files(folder: Path, patterns: list[str] | None) -> tuple[Path, ...]:
    """The set's puzzle files: the ``files`` globs in order (each sorted), or the default files."""
    if patterns is None:
        return tuple(_default_files(folder))
    files: dict[Path, None] = {}
    inside = folder.resolve()
    for pattern in patterns:
        hits = sorted(p for p in folder.glob(pattern) if p.is_file())
        if not hits:
            raise PuzzleError(f"files: {pattern!r} matches no file in {folder}")
        if any(not p.resolve().is_relative_to(inside) for p in hits):
            raise PuzzleError(f"files: {pattern!r} reaches outside the set folder {folder}")
        files.update(dict.fromkeys(hits))
    return tuple(files)


def _read_yaml(path: Path) -> tuple[dict, dict[str, int]]:
    """The mapping in ``path`` and the 1-based line of each top-level key."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise PuzzleError(f"not UTF-8 text ({err.reason})", path=str(path)) from None
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else {}
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
        problem = getattr(err, "problem", None) or str(err)
        raise PuzzleError(f"malformed YAML: {problem}", path=str(path),
                          line=mark.line + 1 if mark else None) from None
    finally:
        loader.dispose()
    if data is None:
        return {}, {}
    if not isinstance(data, dict):
        raise PuzzleError("must be a mapping of keys such as 'puzzle: sudoku'", path=str(path),
                          line=node.start_mark.line + 1)
    lines: dict[str, int] = {}
    for key_node, _ in node.value:
        if key_node.value in lines:
            raise PuzzleError(f"{key_node.value}: key appears twice", path=str(path),
                              line=key_node.start_mark.line + 1)
        lines[key_node.value] = key_node.start_mark.line + 1
    return data, lines


def _known(folders: dict[str, Path]) -> str:
    return ", ".join(folders) or "none"
