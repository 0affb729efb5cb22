"""The Sudoku kind: what the generic code asks of a Sudoku (see :class:`puzzlebench.kinds.PuzzleKind`)."""

from __future__ import annotations

from ...toolkit.rules import MAX_SUDOKU
from .. import PuzzleKind
from ..common import assignment_solution_columns, describe_givens
from .check import _check_sudoku
from .formats import layouts as layout_parts, readers
from .native import format_solution, format_sudoku, read_sudoku, solution_cell
from .puzzle import Sudoku
from .transforms import apply_sudoku_transform, random_sudoku_transform, sudoku_symmetries, sudoku_transform_count


def sudoku_key(puzzle: Sudoku) -> tuple:
    """Shape, box shape and givens."""
    return (puzzle.shape, puzzle.box_rows, puzzle.box_cols, puzzle.givens.tobytes())


class SudokuKind(PuzzleKind):
    """N x N Sudoku with br x bc boxes (the kinds' methods: :class:`puzzlebench.kinds.PuzzleKind`)."""

    name, type, description = "sudoku", Sudoku, "N x N Sudoku with br x bc boxes"
    native_usage, square, max_side, box = "sudoku N [RxC]", True, MAX_SUDOKU, True
    knobs = ("box", "clues", "blank_fraction", "difficulty")
    certifying_formulation = "binary"
    formats, layouts = readers(), layout_parts()

    check = staticmethod(_check_sudoku)
    key = staticmethod(sudoku_key)
    read_native = staticmethod(read_sudoku)
    format_native = staticmethod(format_sudoku)
    solution_cell = staticmethod(solution_cell)
    format_solution = staticmethod(format_solution)
    symmetries = staticmethod(sudoku_symmetries)
    random_transform = staticmethod(random_sudoku_transform)
    transform_count = staticmethod(sudoku_transform_count)
    apply_transform = staticmethod(apply_sudoku_transform)
    describe = staticmethod(describe_givens)

    def draw(self, ax, puzzle, solution, size) -> None:
        from .draw import draw_sudoku
        draw_sudoku(ax, puzzle, solution, size)

    def spec_type(self) -> type:
        return _generator().SudokuSpec

    def generate(self, spec, rng, oracle):
        return _generator().generate_sudoku(spec, rng, oracle)

    def specs(self, args, sizes) -> list:
        return _generator().sudoku_specs(args, sizes)

    def command(self, args, specs) -> list[str]:
        return _generator().sudoku_command(args, specs)

    def procedure(self) -> str:
        return _generator().PROCEDURE

    solution_columns = staticmethod(assignment_solution_columns)


def _generator():
    """The kind's generator module, imported on first use (it brings the uniqueness search)."""
    from . import generator
    return generator


KIND = SudokuKind()
