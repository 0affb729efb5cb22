"""The Takuzu (Binary Sudoku, Binairo) kind (see :class:`puzzlebench.kinds.PuzzleKind`)."""

from __future__ import annotations

from ...toolkit.text import MAX_SIDE
from .. import PuzzleKind
from ..common import describe_givens
from .check import _check_takuzu
from .formats import layouts as layout_parts, readers
from .native import format_solution, format_takuzu, read_takuzu, solution_cell
from .puzzle import Takuzu
from .transforms import apply_takuzu_transform, random_takuzu_transform, takuzu_symmetries, takuzu_transform_count


def takuzu_key(puzzle: Takuzu) -> tuple:
    """Shape, givens and the distinct-lines flag."""
    return (puzzle.shape, puzzle.givens.tobytes(), puzzle.distinct_lines)


class TakuzuKind(PuzzleKind):
    """Takuzu (the kinds' methods: :class:`puzzlebench.kinds.PuzzleKind`)."""

    name, type, description = "takuzu", Takuzu, "Takuzu (Binary Sudoku): balanced 0/1 lines, no three alike"
    native_usage, max_side = "takuzu ROWS COLS [distinct]", MAX_SIDE
    flag, flag_rule = "distinct", "distinct_lines"
    knobs = ("clues", "blank_fraction", "difficulty", "distinct")
    certifying_formulation = "xor-distinct"
    formats, layouts = readers(), layout_parts()

    check = staticmethod(_check_takuzu)
    key = staticmethod(takuzu_key)
    read_native = staticmethod(read_takuzu)
    format_native = staticmethod(format_takuzu)
    solution_cell = staticmethod(solution_cell)
    format_solution = staticmethod(format_solution)
    symmetries = staticmethod(takuzu_symmetries)
    random_transform = staticmethod(random_takuzu_transform)
    transform_count = staticmethod(takuzu_transform_count)
    apply_transform = staticmethod(apply_takuzu_transform)
    describe = staticmethod(describe_givens)

    def draw(self, ax, puzzle, solution, size) -> None:
        from .draw import draw_takuzu
        draw_takuzu(ax, puzzle, solution, size)

    def spec_type(self) -> type:
        return _generator().TakuzuSpec

    def generate(self, spec, rng, oracle):
        return _generator().generate_takuzu(spec, rng, oracle)

    def specs(self, args, sizes) -> list:
        return _generator().takuzu_specs(args, sizes)

    def command(self, args, specs) -> list[str]:
        return _generator().takuzu_command(args, specs)

    def procedure(self) -> str:
        return _generator().PROCEDURE

    def solution_columns(self, puzzle, solution, cells):
        return _generator().takuzu_solution_columns(puzzle, solution, cells)


def _generator():
    """The kind's generator module, imported on first use (it brings the uniqueness search)."""
    from . import generator
    return generator


KIND = TakuzuKind()
