"""puzzlebench: integer-programming formulations of logic puzzles, compared across MIP solvers."""

from .errors import PuzzleError

__version__ = "0.1.0"
__all__ = ["PuzzleError", "Sudoku", "KillerSudoku", "Cage", "Kakuro", "KakuroRun", "Takuzu", "KenKen", "KenKenCage", "__version__"]
_PUZZLE_TYPES = ("Sudoku", "KillerSudoku", "Cage", "Kakuro", "KakuroRun", "Takuzu", "KenKen", "KenKenCage")


def __getattr__(name: str):
    """The puzzle types, imported on first use (they need numpy; ``puzzlebench --help`` does not)."""
    if name in _PUZZLE_TYPES:
        from . import puzzles
        return getattr(puzzles, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
