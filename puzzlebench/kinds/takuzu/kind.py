"""The Takuzu (Binary Sudoku, Binairo) kind (see :class:`puzzlebench.kinds.PuzzleKind`)."""

from __future__ import annotations

from ...io.text import MAX_SIDE
from .. import Later, PuzzleKind
from .check import _check_takuzu
from .formats import layouts, readers
from .native import format_solution, format_takuzu, read_takuzu, solution_cell
from .puzzle import Takuzu
from .transforms import (
    apply_takuzu_transform,
    random_takuzu_transform,
    takuzu_symmetries,
    takuzu_transform_count,
)


def takuzu_key(puzzle: Takuzu) -> tuple:
    """Shape, givens and the distinct-lines flag."""
    return (puzzle.shape, puzzle.givens.tobytes(), puzzle.distinct_lines)


KIND = PuzzleKind(
    name="takuzu", type=Takuzu, description="Takuzu (Binary Sudoku): balanced 0/1 lines, no three alike",
    check=_check_takuzu, key=takuzu_key,
    native_usage="takuzu ROWS COLS [distinct]", max_side=MAX_SIDE, flag="distinct", flag_rule="distinct_lines",
    read_native=read_takuzu, format_native=format_takuzu, solution_cell=solution_cell,
    format_solution=format_solution, draw=Later(f"{__package__}.draw", "draw_takuzu"),
    symmetries=takuzu_symmetries, random_transform=random_takuzu_transform,
    transform_count=takuzu_transform_count, apply_transform=apply_takuzu_transform,
    describe=Later("puzzlebench.kinds.common", "describe_givens"), spec_type=Later(f"{__package__}.generator", "TakuzuSpec"),
    generate=Later(f"{__package__}.generator", "generate_takuzu"), specs=Later(f"{__package__}.generator", "takuzu_specs"),
    command=Later(f"{__package__}.generator", "takuzu_command"), knobs=("clues", "blank_fraction", "difficulty", "distinct"),
    certifying_formulation="xor-distinct", solution_columns=Later(f"{__package__}.generator", "takuzu_solution_columns"),
    formats=readers(), layouts=layouts())
