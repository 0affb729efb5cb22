"""Integer expressions of MiniZinc data files, parsed and evaluated without ``eval``.

Grammar (over the tokens of :mod:`.dzn`), the usual precedence, left to right::

    expr   := term (("+" | "-") term)*
    term   := factor (("*" | "div" | "mod") factor)*
    factor := INT | NAME | "(" expr ")" | "-" factor

``div`` truncates towards zero and ``mod`` takes the sign of the dividend, as
in MiniZinc.  A NAME is another assignment of the file, wherever it is (names
assigned later are resolved; a name that depends on itself is an error).
Anything else (a function call such as ``sqrt(n)``, ``/``, a float) is refused
naming the expression and its line.  Values are kept within +-10**12.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...errors import PuzzleError

LIMIT = 10**12
SUPPORTED = "integers, names, + - * div mod, parentheses and ranges a..b"


@dataclass(frozen=True)
class Expr:
    """An expression that is not a plain integer: its tree, its source text and its line."""

    node: tuple
    text: str
    line: int


def parse_expression(parser) -> int | Expr:
    """The expression at the parser's position (a plain integer stays an int).

    ``parser`` has ``peek() -> (kind, text, line)`` and ``advance()``."""
    start = parser.pos
    node = _expr(parser)
    if node[0] == "int":
        return node[1]
    text = " ".join(t[1] for t in parser.tokens[start:parser.pos])
    return Expr(node, text, parser.tokens[start][2])


def _expr(p) -> tuple:
    node = _term(p)
    while p.peek()[0] in ("+", "-"):
        op = p.peek()[0]
        p.advance()
        node = (op, node, _term(p))
    return node


def _term(p) -> tuple:
    node = _factor(p)
    while p.peek()[0] == "*" or (p.peek()[0] == "name" and p.peek()[1] in ("div", "mod")):
        op = p.peek()[1]
        p.advance()
        node = (op, node, _factor(p))
    if p.peek()[0] == "/":
        raise PuzzleError(f"cannot evaluate '/': it is float division; the data reader evaluates {SUPPORTED} "
                          "(use div)", line=p.peek()[2])
    return node


def _factor(p) -> tuple:
    kind, text, line = p.peek()
    if kind == "int":
        p.advance()
        if len(text) > 12:
            raise PuzzleError(f"the number {text[:14]}... is too large", line=line)
        return ("int", int(text))
    if kind == "-":
        p.advance()
        return ("neg", _factor(p))
    if kind == "(":
        p.advance()
        node = _expr(p)
        if p.peek()[0] != ")":
            raise PuzzleError(f"expected ')' in an expression, got {p.peek()[1][:20]!r}", line=p.peek()[2])
        p.advance()
        return node
    if kind == "name" and text not in ("div", "mod"):
        p.advance()
        if p.peek()[0] == "(":
            raise PuzzleError(f"cannot evaluate {text}(...): the data reader evaluates {SUPPORTED}", line=line)
        return ("name", text, line)
    raise PuzzleError(f"expected a number, '_' or an expression, got {text[:20]!r}", line=line)


def evaluate(value, lookup: Callable[[str, int], object]) -> int:
    """The integer value of ``value`` (an int or an :class:`Expr`); ``lookup(name, line)`` gives the
    value a name is assigned (an int, else a PuzzleError is raised here)."""
    if not isinstance(value, Expr):
        return value
    try:
        return _evaluate(value.node, lookup)
    except PuzzleError as err:
        raise PuzzleError(f"cannot evaluate {value.text!r}: {err.problem}", line=err.line or value.line) from None


def _evaluate(node: tuple, lookup) -> int:
    kind = node[0]
    if kind == "int":
        return node[1]
    if kind == "name":
        found = lookup(node[1], node[2])
        if isinstance(found, bool) or not isinstance(found, int):
            raise PuzzleError(f"{node[1]} is not a whole number", line=node[2])
        return found
    if kind == "neg":
        return -_evaluate(node[1], lookup)
    a, b = _evaluate(node[1], lookup), _evaluate(node[2], lookup)
    if kind in ("div", "mod") and b == 0:
        raise PuzzleError(f"{kind} by zero")
    if kind == "+":
        result = a + b
    elif kind == "-":
        result = a - b
    elif kind == "*":
        result = a * b
    elif kind == "div":
        result = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
    else:
        result = a - b * (abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1))
    if abs(result) > LIMIT:
        raise PuzzleError(f"the value is larger than {LIMIT:.0e}")
    return result
