"""The Kakuro kind (see :class:`puzzlebench.kinds.PuzzleKind`)."""

from __future__ import annotations

from ...toolkit.text import MAX_SIDE
from .. import PuzzleKind
from .check import _check_kakuro
from .formats import layouts as layout_parts, readers
from .native import format_kakuro, format_solution, read_kakuro, solution_cell
from .puzzle import Kakuro
from .transforms import apply_kakuro_transform, kakuro_symmetries, kakuro_transform_count, random_kakuro_transform


def kakuro_key(puzzle: Kakuro) -> tuple:
    """Shape, white cells and both clue layers."""
    return (puzzle.shape, puzzle.white.tobytes(), puzzle.across.tobytes(), puzzle.down.tobytes())


class KakuroKind(PuzzleKind):
    """Kakuro (the kinds' methods: :class:`puzzlebench.kinds.PuzzleKind`)."""

    name, type, description = "kakuro", Kakuro, "Kakuro: runs of distinct digits 1..9 with sums"
    native_usage, max_side = "kakuro ROWS COLS", MAX_SIDE
    knobs = ("density",)
    certifying_formulation = "combinations"
    formats, layouts = readers(), layout_parts()

    check = staticmethod(_check_kakuro)
    key = staticmethod(kakuro_key)
    read_native = staticmethod(read_kakuro)
    format_native = staticmethod(format_kakuro)
    solution_cell = staticmethod(solution_cell)
    format_solution = staticmethod(format_solution)
    symmetries = staticmethod(kakuro_symmetries)
    random_transform = staticmethod(random_kakuro_transform)
    transform_count = staticmethod(kakuro_transform_count)
    apply_transform = staticmethod(apply_kakuro_transform)

    def describe(self, puzzle) -> str:
        return _generator().describe_kakuro(puzzle)

    def open_cells(self, puzzle):
        return _generator().kakuro_open_cells(puzzle)

    def draw(self, ax, puzzle, solution, size) -> None:
        from .draw import draw_kakuro
        draw_kakuro(ax, puzzle, solution, size)

    def spec_type(self) -> type:
        return _generator().KakuroSpec

    def generate(self, spec, rng, oracle):
        return _generator().generate_kakuro(spec, rng, oracle)

    def specs(self, args, sizes) -> list:
        return _generator().kakuro_specs(args, sizes)

    def command(self, args, specs) -> list[str]:
        return _generator().kakuro_command(args, specs)

    def procedure(self) -> str:
        return _generator().PROCEDURE

    def solution_columns(self, puzzle, solution, cells):
        return _generator().kakuro_solution_columns(puzzle, solution, cells)


def _generator():
    """The kind's generator module, imported on first use (it brings the uniqueness search)."""
    from . import generator
    return generator


KIND = KakuroKind()
