"""The Killer Sudoku kind (Killer-X with ``diagonal``; see :class:`puzzlebench.kinds.PuzzleKind`)."""

from __future__ import annotations

from ...toolkit.rules import MAX_SUDOKU
from .. import PuzzleKind
from ..common import assignment_solution_columns
from ..sudoku.kind import sudoku_key
from ..sudoku.native import format_solution, solution_cell
from .check import check_killer
from .formats import layouts as layout_parts, readers
from .native import format_killer, read_killer
from .puzzle import KillerSudoku
from .transforms import apply_killer_transform, killer_symmetries, killer_transform_count, random_killer_transform


def killer_key(puzzle: KillerSudoku) -> tuple:
    """The Sudoku key, the cages (in any order) and the diagonal flag."""
    cages = frozenset((frozenset(cage.cells), cage.total) for cage in puzzle.cages)
    return (*sudoku_key(puzzle), cages, puzzle.diagonal)


class KillerKind(PuzzleKind):
    """Killer Sudoku (the kinds' methods: :class:`puzzlebench.kinds.PuzzleKind`)."""

    name, type, description = "killer", KillerSudoku, "Killer Sudoku: cages with sums (Killer-X: diagonals too)"
    native_usage, square, max_side, box = "killer N [RxC] [diagonal]", True, MAX_SUDOKU, True
    flag, flag_rule = "diagonal", "diagonal"
    knobs = ("box", "max_cage", "diagonal")
    certifying_formulation = "combinations"
    formats, layouts = readers(), layout_parts()

    check = staticmethod(check_killer)
    key = staticmethod(killer_key)
    read_native = staticmethod(read_killer)
    format_native = staticmethod(format_killer)
    solution_cell = staticmethod(solution_cell)
    format_solution = staticmethod(format_solution)
    symmetries = staticmethod(killer_symmetries)
    random_transform = staticmethod(random_killer_transform)
    transform_count = staticmethod(killer_transform_count)
    apply_transform = staticmethod(apply_killer_transform)
    solution_columns = staticmethod(assignment_solution_columns)

    def describe(self, puzzle) -> str:
        return _generator().describe_killer(puzzle)

    def draw(self, ax, puzzle, solution, size) -> None:
        from .draw import draw_killer
        draw_killer(ax, puzzle, solution, size)

    def spec_type(self) -> type:
        return _generator().KillerSpec

    def generate(self, spec, rng, oracle):
        return _generator().generate_killer(spec, rng, oracle)

    def specs(self, args, sizes) -> list:
        return _generator().killer_specs(args, sizes)

    def command(self, args, specs) -> list[str]:
        return _generator().killer_command(args, specs)

    def procedure(self) -> str:
        return _generator().PROCEDURE


def _generator():
    """The kind's generator module, imported on first use (it brings the uniqueness search)."""
    from . import generator
    return generator


KIND = KillerKind()
