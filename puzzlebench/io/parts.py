"""Which kind's part of one of io's layouts serves a puzzle (:attr:`puzzlebench.kinds.PuzzleKind.layouts`)."""

from __future__ import annotations

from ..kinds import layout_kinds, layout_parts, require_kind


def layout_holds(layout: str, what: str = "puzzles") -> tuple[str, ...]:
    """The kinds whose ``what`` (puzzles or solutions) io's layout ``layout`` holds, in the kinds' order:
    those with a part of their own, and for solutions those that name another's; no part is loaded."""
    owners = layout_kinds(layout)
    return tuple(kind for kind, owner in owners.items() if what == "solutions" or owner == kind)


def puzzle_part(puzzle, layout: str):
    """The part of io's layout ``layout`` (:attr:`puzzlebench.kinds.PuzzleKind.layouts`) that states
    ``puzzle``: its kind's own; a kind without one is refused (:func:`~puzzlebench.kinds.require_kind`)."""
    parts = layout_parts(layout)
    return parts[require_kind(puzzle, layout, tuple(parts))]


def solution_part(puzzle, layout: str):
    """The part of io's layout ``layout`` that reads and writes ``puzzle``'s solutions: its kind's own, or
    the one of the kind its kind names (a Killer's: the Sudoku's); a kind with neither is refused."""
    owners = layout_kinds(layout)
    return layout_parts(layout)[owners[require_kind(puzzle, layout, tuple(owners), "solutions")]]
