"""puzzlebench: integer-programming formulations of logic puzzles, compared across MIP solvers."""

from ._moved import install as _install_moved_finder
from ._tree import install as _install_tree_finder

_install_tree_finder()  # puzzlebench.formulations and .analysis from this tree's folders
_install_moved_finder()  # puzzlebench.runner, .records, .config, ...: the modules' paths before the stages

from .errors import PuzzleError  # noqa: E402

__version__ = "0.1.0"
__all__ = ["PuzzleError", "Sudoku", "KillerSudoku", "Cage", "Kakuro", "Run", "Takuzu", "__version__"]
_PUZZLE_TYPES = ("Sudoku", "KillerSudoku", "Cage", "Kakuro", "Run", "Takuzu")


def __getattr__(name: str):
    """The puzzle types, imported on first use (they need numpy; ``puzzlebench --help`` does not)."""
    if name in _PUZZLE_TYPES:
        from . import puzzles
        return getattr(puzzles, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
