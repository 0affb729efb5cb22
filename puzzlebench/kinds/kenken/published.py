"""What KenKen's published layouts share (:mod:`.keen`, :mod:`.json_cages`, :mod:`.letters`), decided
once: how an operation is spelled (:data:`SPELLINGS`), what a target may be (:func:`target`), and how a
one-cell cage's operation is read (:func:`cage`)."""

from __future__ import annotations

from ...errors import PuzzleError
from .puzzle import OPERATIONS, KenKenCage

SPELLINGS = {
    "+": "+", "add": "+", "plus": "+", "sum": "+", "addition": "+",
    "-": "-", "\u2212": "-", "\u2013": "-", "sub": "-", "subtract": "-", "minus": "-", "difference": "-",
    "subtraction": "-",
    "x": "x", "*": "x", "\u00d7": "x", "\u00b7": "x", "mul": "x", "multiply": "x", "times": "x", "product": "x",
    "multiplication": "x",
    "/": "/", "\u00f7": "/", "div": "/", "divide": "/", "quotient": "/", "division": "/",
    "=": "", "": "", "none": "", "given": "",
}
"""An operation as published (any case) -> puzzlebench's (:data:`.puzzle.OPERATIONS`, ``""`` for a
one-cell cage's none)."""

OPERATION_WORDS = "+ - * / (also x, \u00d7, \u00f7, add, sub, mul, div), or = or nothing for one cell"


def operation(word, where: str) -> str:
    """puzzlebench's operation for a published spelling ``word`` (None is the empty operation)."""
    if word is None:
        return ""
    if isinstance(word, str) and word.strip().lower() in SPELLINGS:
        return SPELLINGS[word.strip().lower()]
    raise PuzzleError(f"{where}: the operation {str(word)[:20]!r} is not one of {OPERATION_WORDS}")


def target(value, where: str) -> int:
    """A cage's target: a whole number, or a float with no fraction (``3.0``, as Python's ``/``
    writes a division's target); a string of digits too.  Anything else is refused."""
    if isinstance(value, str) and value.strip().isdecimal() and len(value.strip()) <= 18:
        return int(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(f"{where}: the target {value!r} is not a whole number")
    return value


def cage(cells, word, value, where: str) -> KenKenCage:
    """A cage of ``cells`` with the published operation ``word`` and target ``value``.  A one-cell
    cage states its digit: ``=``, nothing, ``+`` or ``x`` (Keen's ``a``) all read as no operation;
    ``-`` or ``/`` on one cell is refused, as is a larger cage without an operation."""
    op, total = operation(word, where), target(value, where)
    if len(cells) == 1 and op in ("+", "x"):
        op = ""
    if len(cells) > 1 and op == "":
        raise PuzzleError(f"{where} has {len(cells)} cells and no operation; it needs one of "
                          f"{' '.join(OPERATIONS)}")
    return KenKenCage(tuple(cells), op, total)
