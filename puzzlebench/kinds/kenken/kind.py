"""The KenKen (Calcudoku) kind (see :class:`puzzlebench.kinds.PuzzleKind`)."""

from __future__ import annotations

from .. import PuzzleKind
from ..common import assignment_solution_columns
from .check import check_kenken
from .formats import readers
from .native import format_kenken, format_kenken_solution, read_native, solution_cell
from .puzzle import MAX_SIZE, KenKen, describe, puzzle_key
from .transforms import (
    apply_kenken_transform,
    kenken_symmetries,
    kenken_transform_count,
    random_kenken_transform,
)


class KenKenKind(PuzzleKind):
    """KenKen (the kinds' methods: :class:`puzzlebench.kinds.PuzzleKind`)."""

    name, type = "kenken", KenKen
    description = "KenKen (Calcudoku): a Latin square in cages with a target and +, -, x or /"
    native_usage, square, max_side = "kenken N", True, MAX_SIZE
    knobs = ("max_cage",)
    certifying_formulation = "binary"
    formats = readers()

    check = staticmethod(check_kenken)
    key = staticmethod(puzzle_key)
    read_native = staticmethod(read_native)
    format_native = staticmethod(format_kenken)
    solution_cell = staticmethod(solution_cell)
    format_solution = staticmethod(format_kenken_solution)
    symmetries = staticmethod(kenken_symmetries)
    random_transform = staticmethod(random_kenken_transform)
    transform_count = staticmethod(kenken_transform_count)
    apply_transform = staticmethod(apply_kenken_transform)
    describe = staticmethod(describe)
    solution_columns = staticmethod(assignment_solution_columns)

    def draw(self, ax, puzzle, solution, size) -> None:
        from .draw import draw_kenken
        draw_kenken(ax, puzzle, solution, size)

    def spec_type(self) -> type:
        return _generator().KenKenSpec

    def generate(self, spec, rng, oracle):
        return _generator().generate_kenken(spec, rng, oracle)

    def specs(self, args, sizes) -> list:
        return _generator().kenken_specs(args, sizes)

    def command(self, args, specs) -> list[str]:
        return _generator().kenken_command(args, specs)

    def procedure(self) -> str:
        return _generator().PROCEDURE


def _generator():
    """The kind's generator module, imported on first use (it brings the uniqueness search)."""
    from . import generator
    return generator


KIND = KenKenKind()
