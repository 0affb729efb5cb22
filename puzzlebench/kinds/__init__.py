"""Puzzle kinds: one folder each, and the registry the generic code consults.

``puzzlebench/kinds/<kind>/`` holds what is the kind's own (its data type, rules
checker, native reader and writer, identity key, drawing, symmetries and
generator); its ``kind.py`` gathers them into a subclass of :class:`PuzzleKind` and names an
instance of it ``KIND``.  Dropping in such a folder is all it takes: the folders are scanned on
first use.  Detection, checking, drawing, transforms, ``generate``, ``import``, the CLI's
``--puzzle`` choices and the config schema ask this registry, never
the puzzle's class: :func:`kind_of` (a puzzle's kind, by its type),
:func:`get_kind` (by name), :func:`kinds` and :func:`names`; io's generic layouts ask the kinds'
parts of them (:attr:`PuzzleKind.layouts`) through :func:`layout_parts` and :func:`layout_kinds`.

Installed packages add kinds through the entry-point group ``puzzlebench.kinds``:
each entry point names a :class:`PuzzleKind` instance (``module:KIND``), loaded
after the built-in kinds.  An unknown kind is a PuzzleError naming the known
ones; nothing falls through to another kind.

This module imports no kind at import time (the built-ins are imported on first
use), so a kind's modules may import the generic ones without an import cycle.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..errors import PuzzleError
from ..plugins import entry_points
from ..toolkit.rules import OPTIONS
from ..toolkit.syntax import LAYOUTS
from ..toolkit.text import listing

if TYPE_CHECKING:
    import numpy as np

BUILTIN = ("sudoku", "killer", "kakuro", "takuzu", "kenken")  # kenken: the number its bundled sets were made with
"""The first built-in kinds, in their order (the start of PUZZLE_NAMES, and the numbers in generated
puzzles' random keys).  Every folder ``puzzlebench/kinds/<name>/`` with a ``kind.py`` is a built-in kind:
these first, then the others by name."""
GROUP = "puzzlebench.kinds"


@dataclass(frozen=True)
class Later:
    """A kind's part of one of io's layouts that lives in a module imported on first use:
    ``Later(module)`` (the module loads when the layout is used)."""

    module: str

    def load(self):
        """The module, imported (once: Python keeps it)."""
        return importlib.import_module(self.module)


def loaded(value):
    """``value``, or the module a :class:`Later` names."""
    return value.load() if isinstance(value, Later) else value


class UnknownKind(PuzzleError, TypeError):
    """A puzzle of no registered kind: a PuzzleError (one line, exit 2) and, as before the kinds had a
    registry, a TypeError."""


class PuzzleKind:
    """What the generic code needs of one puzzle kind.  A kind's ``kind.py`` subclasses it, sets the
    attributes below and gives the methods, and names an instance ``KIND``.  In the methods ``puzzle``
    and ``grid`` are an instance of :attr:`type` and a numpy integer array of its shape; positions in
    messages are 1-based.  A method every kind gives (:data:`REQUIRED_METHODS`) that a kind leaves out
    is an error when the kind is registered, naming the kind; the generator's methods
    (:data:`GENERATOR_METHODS`) are given all together or not at all.  A kind imports its heavy parts
    (the generator brings the uniqueness search, Kakuro's ``scipy.ndimage``; the drawing matplotlib)
    inside the methods that use them, so a command that does not call them (``--help``, a one-puzzle
    ``solve``) does not load them.

    Attributes
      name          the puzzle name (``--puzzle``, instance folders, the native header word, records)
      type          the validated, immutable data type (a class with ``shape``, ``name``, ``num_givens``
                    and the ClassVar ``puzzle == name``); a subclass registered as another kind wins
      description   one line for listings
      native_usage  the native header's usage (:mod:`puzzlebench.io.native`; a header
                    ``<name> SIZES [RxC] [FLAG]``), e.g. ``"killer N [RxC] [diagonal]"``
      square        the header (and ``generate --size``) gives one side N, not ROWS COLS
      max_side      the largest side a header may state
      box           the header may carry a box shape RxC (the ``box`` rule option)
      flag          the header's optional flag word (``"diagonal"``), None for none
      flag_rule     the :class:`~puzzlebench.toolkit.rules.Rules` field the flag sets (``"diagonal"``)
      knobs         the ``generate`` options (argparse dests) that apply to this kind: those
                    ``generate`` defines for every kind (``box``, ``max_cage``, ...; its ``--help``) and
                    the kind's own (:meth:`generate_options`)
      certifying_formulation  the formulation whose integer columns are binary and fixed by the grid
                    (:meth:`solution_columns`), None for none
    Other formats (:mod:`puzzlebench.io` offers them beside its own, under ``--format NAME``)
      formats       ``{name: reader}``: the layouts other projects publish this kind in, each reader a
                    module or object with ``read(text, path, puzzle, rules, layout)`` (as io's
                    readers: a list of :class:`~puzzlebench.toolkit.entry.Entry` or located PuzzleError
                    items, one a puzzle), ``looks_like(text) -> bool`` (detection: true only for a
                    text in that layout, specific enough that no other format's file passes it) and
                    ``HINT`` (an example for messages, ``"a Keen game ID '6:_a...,a9m6...'"``);
                    optionally ``read_solutions(text, puzzle)`` (as io's readers), ``format_puzzle``
                    and ``format_solution``.  A name must not be one of io's formats nor another
                    kind's.
      layouts       ``{layout: part}``: the kind's part of io's generic layouts, those that hold several
                    kinds (:data:`puzzlebench.toolkit.syntax.LAYOUTS`), each part a module or object (usually a
                    :class:`Later` naming a module of the kind's folder: it loads when the layout is
                    used), or the name of a kind registered before whose own part reads and writes
                    this kind's solutions, the layout holding none of its puzzles (a Killer's
                    solution is a Sudoku grid: ``{"lines": "sudoku"}``).  The layout's module keeps
                    its own syntax and asks the kinds' parts, in the kinds' order; a kind with no
                    part is refused by the layout, naming those that have one.  What a part
                    provides, by layout:

                    ``lines`` (one puzzle a line; ``line`` a puzzlebench.toolkit.text.TextLine):
                      ``looks_like(text)``      does a line (detection: the first) look like the kind's?
                      ``read(text, path, rules, layout)``  the file's items (as io's readers'), one a
                                                puzzle line
                      ``read_solution(line, puzzle)``  the solution grid on a line
                      ``format_puzzle(puzzle)``, ``format_solution(puzzle, grid)``  a line of text
                    ``janko`` (a header ``R C`` and rows of tokens; ``lines`` puzzlebench.toolkit.text.TextLines, the
                    header first; ``rows_after`` the lines after it, ``tokens`` their cells):
                      ``DATASET``               the puzzlekit dataset name (``"KillerSudoku"``)
                      ``claims(rows_after, rows, tokens)``  is a text of no stated kind the kind's?
                                                A part without ``claims`` takes the texts no part claims.
                      ``CLASH``                 optional: the cells of claimed grids that may read as
                                                that default kind's too (such a grid is tried both ways)
                      ``read(lines, rows, cols, rules, name)``  the puzzle
                      ``solution_cell(lines, puzzle)``  (token parser, description) of a solution's cells
                      ``format_puzzle(puzzle)``, ``format_solution(puzzle, grid)``  the text
                    ``tatham`` (Simon Tatham's game IDs ``PARAMS:DESC``; ``sides`` the one or two
                    numbers of PARAMS, ``flags`` the letters after them):
                      ``GAME``                  the game's name (``"Solo"``)
                      ``looks_like(sides, flags, desc)``  is an ID of no stated kind this game's?
                      ``takes(flags)``          of the game's IDs, is this one the kind's?
                      ``read(sides, flags, desc, rules, name)``  the puzzle of the ID
                      ``format_puzzle(puzzle)`` the ID of a puzzle of the kind, a line
                    ``dzn`` (MiniZinc data; ``data`` the file's variables by role: ``data.get``,
                    ``data.scalar``, ``data.grid`` (kind, role), :mod:`puzzlebench.io.dzn`):
                      ``ROLES``                 role -> the variable names tried, in order
                      ``MARKERS``, ``MARKED``   the roles whose variables mark a file as the kind's, and
                                                how messages name them (``"puzzle (Sudoku)"``)
                      ``CONVENTIONS``           optional: the values of the layout's ``convention``
                      ``read(data, rules, name)``  the puzzle
                      ``format_puzzle(puzzle, layout)``  the data (after the comment line)
                    ``grid`` (bare grids; ``grids`` as :mod:`puzzlebench.io.grid` scans them: each
                    with ``rows`` of cell symbols, ``height``, ``width``, ``lines``, ``title``):
                      ``SIDES``, ``fits(side)`` the grids the part reads, for messages (``"sudoku
                                                (4..36)"``), and can a grid of ``side`` rows be one?
                      ``read(grids, path, rules, layout)``  the file's items
                                                (:func:`puzzlebench.toolkit.syntax.grids.paired_entries`)
                      ``solution_size(puzzle)`` the size a solution file is scanned at (None: as read)
                      ``solutions(grids, puzzle, titled)``  the items of a solution file's grids
                                                (``titled``: it titles its solutions "Solution")
                      ``format_puzzle(puzzle)``, ``format_solution(puzzle, grid)``  rows of text
                    ``killer-json`` (JSON: a cage list, an f-puzzles object; ``data`` the JSON value,
                    ``{"data": ...}`` unwrapped; parts are asked in the kinds' order, a kind whose type
                    extends another's before it):
                      ``KEYS``                  the f-puzzles keys the part reads
                      ``claims(data)``          is the file the kind's?
                      ``read(data, rules)``     (puzzle, solution or None)
                                                (:func:`puzzlebench.toolkit.syntax.fpuzzles.fpuzzles_grid`)
                      ``document(puzzle)``      the f-puzzles keys that state it beyond size and givens
                    ``sudoku-yaml`` (Nickleaton's ``Board``/``Constraints``; read only):
                      ``CONSTRAINTS``           the constraints the part reads; a file is of the kind
                                                whose part reads exactly the ones it has (none: plain)
                      ``constraint(node, line, n)``  one constraint's value (a YAML node)
                      ``build(givens, box, found, rules)``  the puzzle (``found``: the values)
    """

    name: ClassVar[str]
    type: ClassVar[type]
    description: ClassVar[str]
    native_usage: ClassVar[str]
    square: ClassVar[bool] = False
    max_side: ClassVar[int] = 100
    box: ClassVar[bool] = False
    flag: ClassVar[str | None] = None
    flag_rule: ClassVar[str | None] = None
    knobs: ClassVar[tuple[str, ...]] = ()
    certifying_formulation: ClassVar[str | None] = None
    formats: ClassVar[dict] = {}
    layouts: ClassVar[dict] = {}

    # -- rules and identity ------------------------------------------------------------------------

    def check(self, puzzle, grid) -> list[str]:
        """Every rule violation of ``grid``, a sentence each; called only with a grid of the puzzle's
        shape (the generic checker refuses other shapes)."""
        raise NotImplementedError

    def key(self, puzzle) -> tuple:
        """Hashable, equal exactly when two puzzles state the same puzzle (the name ignored); the
        registry prefixes the kind's name (:func:`kind_key`)."""
        raise NotImplementedError

    def describe(self, puzzle) -> str:
        """Size and clue figures, one line (``9x9, 28 givens (65% blank)``)."""
        raise NotImplementedError

    def open_cells(self, puzzle) -> np.ndarray:
        """Flat indices of the cells a solution fills (all, unless the kind says otherwise)."""
        import numpy as np
        return np.arange(puzzle.shape[0] * puzzle.shape[1])

    # -- the native format (:mod:`puzzlebench.io.native`) -------------------------------------------

    def read_native(self, cursor, header, rules, name: str, where: str):
        """The puzzle of the grid after the header (``cursor`` a puzzlebench.toolkit.text.Cursor, ``header`` an
        kinds.header.Header, ``where`` names the puzzle in messages)."""
        raise NotImplementedError

    def format_native(self, puzzle) -> str:
        """The native text, header first."""
        raise NotImplementedError

    def solution_cell(self, puzzle) -> tuple[Callable[[str], int | None], str]:
        """The token parser of a solution grid's cells (token -> int or None) and the description of a
        valid token."""
        raise NotImplementedError

    def format_solution(self, puzzle, grid) -> str:
        """A solution's native grid rows."""
        raise NotImplementedError

    # -- drawing -------------------------------------------------------------------------------------

    def draw(self, ax, puzzle, solution, size: float) -> None:
        """Draw into matplotlib Axes whose data coordinates are set (cell (r, c) spans [c, c+1] x [r, r+1],
        y down); ``solution`` is None or a grid; ``size`` is a cell's side in points."""
        raise NotImplementedError

    # -- symmetries (:mod:`puzzlebench.transforms`) -------------------------------------------------

    def symmetries(self, puzzle) -> tuple[str, ...]:
        """The transform kinds that change something."""
        raise NotImplementedError

    def random_transform(self, puzzle, rng, use: set, transpose: bool):
        """A random symmetry (a Transform) from the transform kinds ``use`` (within :meth:`symmetries`),
        transposed or not as drawn."""
        raise NotImplementedError

    def transform_count(self, puzzle, use: set) -> int:
        """How many distinct transforms :meth:`random_transform` draws from (identity included)."""
        raise NotImplementedError

    def apply_transform(self, transform, puzzle, name: str):
        """The transformed puzzle, named ``name``."""
        raise NotImplementedError

    # -- the generator (:mod:`puzzlebench.generators`; all or none of these) ------------------------

    def spec_type(self) -> type:
        """The spec dataclass (with ``key``, ``label`` and ``parameters``)."""
        raise NotImplementedError

    def generate(self, spec, rng, oracle):
        """A generated puzzle (``Generated``) of ``spec``, from ``rng``, unique as ``oracle`` says."""
        raise NotImplementedError

    def specs(self, args, sizes) -> list:
        """The specs of ``generate``'s options (``sizes`` parsed (rows, cols) pairs)."""
        raise NotImplementedError

    def command(self, args, specs) -> list[str]:
        """The options of the canonical ``generate`` command that regenerates the set (after ``--seed``)."""
        raise NotImplementedError

    def procedure(self) -> str:
        """How the generator makes its puzzles, the text a generated set's SOURCE.md states."""
        raise NotImplementedError

    def solution_columns(self, puzzle, solution, cells) -> tuple[np.ndarray, np.ndarray]:
        """The columns of :attr:`certifying_formulation` that read "flat cell c as in ``solution``" for
        each of ``cells``, and their values there."""
        raise NotImplementedError

    def generate_options(self, parser) -> None:
        """Add the ``generate`` options only this kind has (argparse ``add_argument``; their dests in
        :attr:`knobs`); none unless the kind says otherwise."""

    # -- derived -------------------------------------------------------------------------------------

    @property
    def generates(self) -> bool:
        """Whether the kind has a generator."""
        return _gives(self, "generate")

    @property
    def seed_key(self) -> int:
        """The kind's number in a generated puzzle's random key: its place in :data:`BUILTIN`, else
        a checksum of its name (so a kind's puzzles do not depend on which other kinds are installed)."""
        return BUILTIN.index(self.name) if self.name in BUILTIN else zlib.crc32(self.name.encode())

    def __repr__(self) -> str:
        return f"<puzzle kind {getattr(self, 'name', '?')!r} ({type(self).__qualname__})>"


REQUIRED_ATTRIBUTES = ("name", "type", "description", "native_usage")
REQUIRED_METHODS = ("check", "key", "describe", "read_native", "format_native", "solution_cell", "format_solution",
                    "draw", "symmetries", "random_transform", "transform_count", "apply_transform")
"""The methods every kind gives."""
GENERATOR_METHODS = ("spec_type", "generate", "specs", "command", "procedure", "solution_columns")
"""The methods of a kind with a generator (with :attr:`PuzzleKind.certifying_formulation`)."""


def _gives(kind: PuzzleKind, method: str) -> bool:
    """Whether ``kind``'s class gives ``method`` (not the base class's placeholder)."""
    given = getattr(type(kind), method, None)
    return callable(given) and given is not getattr(PuzzleKind, method)


NAME = r"[A-Za-z][A-Za-z0-9_-]*"
"""A kind's name: the first word of its files' native header."""
_KINDS: dict[str, PuzzleKind] = {}
_BY_TYPE: dict[type, PuzzleKind] = {}
_loaded = [False]


def register_kind(kind: PuzzleKind) -> PuzzleKind:
    """Add ``kind`` to the registry (the built-ins and the entry points are added on first use);
    a kind that leaves out an attribute or a method, a second kind of the same name, or a type whose
    ``puzzle`` is not the kind's name, is an error naming the kind."""
    if not isinstance(kind, PuzzleKind):  # the one check on a registry entry's type: a plug-in's mistake
        raise PuzzleError(f"a puzzle kind must be a PuzzleKind (an instance of a subclass), "
                          f"got {type(kind).__name__}")
    absent = [name for name in REQUIRED_ATTRIBUTES if not hasattr(kind, name)]
    if absent:
        raise PuzzleError(f"puzzle kind {type(kind).__qualname__}: no {', '.join(absent)} attribute")
    if not isinstance(kind.name, str) or not re.fullmatch(NAME, kind.name):
        raise PuzzleError(f"puzzle kind name {kind.name!r}: must be a word a file header can start with "
                          f"(letters, digits, - and _, a letter first)")
    missing = [name for name in REQUIRED_METHODS if not _gives(kind, name)]
    if missing:
        raise PuzzleError(f"puzzle kind {kind.name!r}: gives no {', '.join(missing)} (every kind does)")
    generator = [name for name in GENERATOR_METHODS if _gives(kind, name)]
    if generator and len(generator) < len(GENERATOR_METHODS):
        raise PuzzleError(f"puzzle kind {kind.name!r}: its generator gives no "
                          f"{', '.join(n for n in GENERATOR_METHODS if n not in generator)} "
                          f"(a generator gives {', '.join(GENERATOR_METHODS)})")
    if generator and kind.certifying_formulation is None:
        raise PuzzleError(f"puzzle kind {kind.name!r}: its generator needs a certifying_formulation")
    if not isinstance(kind.type, type):
        raise PuzzleError(f"puzzle kind {kind.name!r}: type must be a class")
    known = _KINDS.get(kind.name)
    if known is not None and known is not kind:
        raise PuzzleError(f"puzzle kind {kind.name!r} is registered twice")
    _check_formats(kind)
    _check_layouts(kind)
    if getattr(kind.type, "puzzle", None) != kind.name:
        raise PuzzleError(f"puzzle kind {kind.name!r}: its type {kind.type.__name__} must have "
                          f"puzzle = {kind.name!r}")
    _KINDS[kind.name] = kind
    _BY_TYPE[kind.type] = kind
    return kind


FORMAT_NAME = r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*"
"""A format's name (``--format``): lower-case words joined by ``-``."""


def _check_formats(kind: PuzzleKind) -> None:
    """The kind's ``formats`` are a mapping of format names to readers with ``read`` and ``looks_like``,
    no name another kind's."""
    if not isinstance(kind.formats, dict):
        raise PuzzleError(f"puzzle kind {kind.name!r}: formats must be a dict of format names to readers")
    for name, reader in kind.formats.items():
        if not isinstance(name, str) or not re.fullmatch(FORMAT_NAME, name):
            raise PuzzleError(f"puzzle kind {kind.name!r}: format name {name!r} must be lower-case words "
                              "joined by '-'")
        missing = [attr for attr in ("read", "looks_like") if not callable(getattr(reader, attr, None))]
        if missing:
            raise PuzzleError(f"puzzle kind {kind.name!r}: the reader of format {name!r} has no "
                              f"{' and no '.join(missing)} function")
        owner = next((k.name for k in _KINDS.values() if k.name != kind.name and name in k.formats), None)
        if owner is not None:
            raise PuzzleError(f"puzzle kind {kind.name!r}: format {name!r} is already kind {owner!r}'s")


def _check_layouts(kind: PuzzleKind) -> None:
    """The kind's ``layouts`` map names of io's generic layouts to parts (a :class:`Later`'s module there),
    or to a kind registered before that has a part of its own."""
    if not isinstance(kind.layouts, dict):
        raise PuzzleError(f"puzzle kind {kind.name!r}: layouts must be a dict of io's layout names to parts")
    for name, part in kind.layouts.items():
        if name not in LAYOUTS:
            raise PuzzleError(f"puzzle kind {kind.name!r}: {name!r} is none of io's layouts "
                              f"(layouts: {', '.join(LAYOUTS)})")
        if isinstance(part, Later) and importlib.util.find_spec(part.module) is None:
            raise PuzzleError(f"puzzle kind {kind.name!r}: no module for its {name} part ({part.module})")
        if isinstance(part, str) and (part not in _KINDS or isinstance(_KINDS[part].layouts.get(name, part), str)):
            raise PuzzleError(f"puzzle kind {kind.name!r}: its {name} part names kind {part!r}, which has no "
                              f"{name} part of its own (or is not registered before it)")


def layout_kinds(layout: str) -> dict[str, str]:
    """Kind name -> the kind whose part of io's layout ``layout`` serves it (itself, or the kind its
    :attr:`PuzzleKind.layouts` names for its solutions), of each kind that declares one, in the kinds'
    order; no part is loaded."""
    return {kind.name: part if isinstance(part, str) else kind.name
            for kind in kinds() if (part := kind.layouts.get(layout)) is not None}


def layout_parts(layout: str) -> dict[str, object]:
    """Each kind's own part of io's layout ``layout`` (:attr:`PuzzleKind.layouts`), loaded: kind name ->
    part, in the kinds' order."""
    return {kind.name: loaded(part) for kind in kinds()
            if (part := kind.layouts.get(layout)) is not None and not isinstance(part, str)}


def _folders() -> list[str]:
    """The kinds' folders that hold a ``kind.py``: the four of :data:`BUILTIN` in their order, then the others by name."""
    names = [m.name for m in pkgutil.iter_modules(__path__) if m.ispkg
             and importlib.util.find_spec(f"{__name__}.{m.name}.kind") is not None]
    return sorted(names, key=lambda n: (BUILTIN.index(n) if n in BUILTIN else len(BUILTIN), n))


def _load() -> None:
    if _loaded[0]:
        return
    _loaded[0] = True
    for name in _folders():
        register_kind(importlib.import_module(f"{__name__}.{name}.kind").KIND)
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        where = f"entry point {point.name!r} ({point.value}) of group {GROUP}"
        try:
            kind = point.load()
        except (Exception, SystemExit) as exc:  # noqa: BLE001 -- whatever a plug-in raises (sys.exit too) is one line
            raise PuzzleError(f"{where} failed to load: {type(exc).__name__}: {exc}") from None
        try:
            register_kind(kind)
        except PuzzleError as err:
            raise PuzzleError(f"{where}: {err}") from None


def kinds() -> list[PuzzleKind]:
    """Every kind: the built-ins in their order, then the installed ones by name."""
    _load()
    return list(_KINDS.values())


def names() -> tuple[str, ...]:
    """The names of every kind (the ``--puzzle`` choices)."""
    return tuple(k.name for k in kinds())


def get_kind(name: str) -> PuzzleKind:
    """The kind called ``name``; an unknown name is a PuzzleError listing the known ones."""
    _load()
    try:
        return _KINDS[name]
    except KeyError:
        raise UnknownKind(f"unknown puzzle {name!r} (known: {', '.join(_KINDS)})") from None


def kind_of(puzzle) -> PuzzleKind:
    """The kind of ``puzzle``: the registered type nearest in its class's MRO (a KillerSudoku is a
    killer, though it is a Sudoku too); a puzzle of no registered kind is a PuzzleError naming its type."""
    _load()
    for cls in type(puzzle).__mro__:
        if cls in _BY_TYPE:
            return _BY_TYPE[cls]
    raise UnknownKind(f"{type(puzzle).__name__} is no puzzle kind (known: {', '.join(_KINDS)})")


def require_kind(puzzle, format: str, kinds: tuple[str, ...], what: str = "puzzles") -> str:
    """The kind name of ``puzzle`` when ``format`` holds its ``what`` (one of ``kinds``); else a PuzzleError
    ("the lines format holds only sudoku and takuzu puzzles, not killer").  A format that states several
    kinds looks its per-kind parts up by this name, so a kind it has no layout for is refused, never
    read as another kind."""
    name = kind_of(puzzle).name
    if name not in kinds:
        raise PuzzleError(f"the {format} format holds only {listing(kinds)} {what}, not {name}")
    return name


def kind_key(puzzle) -> tuple:
    """:meth:`PuzzleKind.key` of ``puzzle``, prefixed with its kind's name."""
    kind = kind_of(puzzle)
    return (kind.name, *kind.key(puzzle))


def spec_kind(spec) -> PuzzleKind:
    """The kind whose generator takes ``spec``."""
    for kind in kinds():
        if kind.generates and type(spec) is kind.spec_type():
            return kind
    raise PuzzleError(f"{type(spec).__name__} is the spec of no puzzle kind's generator")


def applies_to(option: str) -> tuple[str, ...]:
    """The kinds that take rule option ``option`` (:data:`puzzlebench.toolkit.rules.OPTIONS`): ``box`` those
    whose header carries a box shape, a flag option those whose header flag sets it (:class:`PuzzleKind`
    ``box``, ``flag_rule``)."""
    return tuple(k.name for k in kinds() if (k.box if option == "box" else k.flag_rule == option))


def require_applicable(rules, puzzle: str) -> None:
    """Refuse a rule option of ``rules`` (:class:`~puzzlebench.toolkit.rules.Rules`) that kind ``puzzle`` has no
    rule for: silently dropping it would change the benchmark."""
    for name in OPTIONS:
        value = getattr(rules, name)
        puzzles = applies_to(name)
        if value not in (None, False) and puzzle not in puzzles:
            raise PuzzleError(f"option {name}={value!r} does not apply to {puzzle} "
                              f"(only to {', '.join(puzzles)})")
