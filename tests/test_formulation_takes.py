"""A formulation's skip reason is its ``takes`` field, not a docstring (issue 36, item 5): editing a
docstring changes no output; ``applies`` without ``takes`` is refused at registration."""

from __future__ import annotations

import pytest

from puzzlebench import registry
from puzzlebench.registry import formulation, get_formulation


def test_applies_without_takes_is_refused_naming_the_formulation():
    def some(puzzle):
        """A docstring is documentation only."""
        return False

    with pytest.raises(ValueError, match=r"^formulation sudoku/no-takes: applies= needs takes="):
        formulation("sudoku", "no-takes", description="test", applies=some)(lambda puzzle: None)
    assert ("sudoku", "no-takes") not in registry._FORMULATIONS


def test_the_skip_reason_is_takes_whatever_the_docstring_says():
    info = get_formulation("takuzu", "integer-encoding")
    assert info.takes == "puzzles with lines of at most 18 cells, or without distinct lines"
    assert "at most 18 cells" not in (info.applies.__doc__ or "")
    assert get_formulation("kenken", "log-linear").takes.startswith("puzzles whose product and division cages")
    assert get_formulation("sudoku", "binary").takes == "every puzzle of its type"
