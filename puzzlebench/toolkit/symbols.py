"""Cell symbols: which character (or number token) stands for which value, found from the whole file.

An *alphabet* is the ordered list of an N x N grid's value symbols (the first
stands for 1) and its blank symbols.  ``--symbols SPEC[/BLANKS]`` (or
``symbols:`` in ``set.yaml``) states it:

* SPEC lists the value symbols in order, as single characters and ranges
  ``X-Y`` of characters: ``1-9A-G`` is 1..9 then A..G (16 values; ``A`` = 10),
  ``0-9A-F`` is 0..9 then A..F (``0`` = 1, ``F`` = 16), ``A-P`` is A..P.  A
  range whose ends are numbers and one of them has two or more digits, such as
  ``1-16``, lists those numbers written in decimal (for grids of
  blank-separated numbers).  An N x N grid takes the first N symbols.
* BLANKS, after a ``/``, lists the blank symbols (``1-9/*``, ``0-9A-F/.``).
  Without it the blank is the one symbol of the file that is no value (``.``
  and ``0`` may both be blanks when ``0`` is no value and no alphabet with one
  blank fits).

Without ``--symbols`` the alphabet is inferred from every symbol the file uses
(all its grids of that size together, never its first line alone).  The
candidates for an N x N grid are the digits ``1-N`` (N <= 9) and, for N >= 10,
``1-9A-Z a`` (the lines convention: ``1-9A-G`` for 16), the letters ``A-..``
and ``a-..``, ``0-9A-..`` and ``0-9a-..`` (hexadecimal style: ``0-9A-F`` for
16) and, in grids of separated tokens, the decimal numbers 1..N.  An alphabet fits when every symbol used is one of its values or its
blank.  When several fit and read the file differently (``1-9A-F`` and ``.``
fit both ``1-9A-G`` and ``0-9A-F``), the file is refused naming them: say which
with ``--symbols``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..errors import PuzzleError
from .text import AmbiguousReading

_DIGITS = "123456789"
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = _UPPER.lower()
_SEQUENCES = (  # (first size it applies to, symbols); an N x N grid takes the first N
    (1, _DIGITS + _UPPER + "a"),
    (10, _UPPER),
    (10, _LOWER),
    (10, "0" + _DIGITS + _UPPER),
    (10, "0" + _DIGITS + _LOWER),
)
_PAIR = frozenset(".0")
_RANGE = re.compile(r"([0-9]+)-([0-9]+)|(.)-(.)|(.)", re.DOTALL)


@dataclass(frozen=True)
class Alphabet:
    """Value symbols in order (the first is 1) and the blank symbols (None: the file's one other)."""

    values: tuple[str, ...]
    blanks: frozenset[str] | None = None

    @property
    def spec(self) -> str:
        """The alphabet written as a ``--symbols`` SPEC (runs of characters as ranges)."""
        return describe(self.values)

    def sized(self, n: int) -> Alphabet:
        """The first ``n`` values (a PuzzleError when there are fewer)."""
        if len(self.values) < n:
            raise PuzzleError(f"--symbols {self.spec} gives {len(self.values)} symbols; "
                              f"a {n} x {n} grid needs {n}")
        return Alphabet(self.values[:n], self.blanks)

    def blanks_for(self, used: set[str], pair: bool = False) -> frozenset[str] | None:
        """The blanks that read the symbols ``used`` with this alphabet, or None when it does not fit."""
        extras = used - set(self.values)
        if self.blanks is not None:
            return self.blanks if extras <= self.blanks else None
        if len(extras) <= 1:
            return frozenset(extras) or frozenset(".")
        if pair and extras == _PAIR and "0" not in self.values:
            return _PAIR
        return None

    def table(self, blanks: frozenset[str]) -> dict[str, int]:
        """Symbol -> value (0 for a blank)."""
        mapping = {symbol: k for k, symbol in enumerate(self.values, start=1)}
        mapping.update((b, 0) for b in blanks if b not in mapping)
        return mapping


def describe(symbols: Iterable[str]) -> str:
    """``("1", ..., "9", "A", ..., "G")`` -> ``"1-9A-G"``; decimal numbers as ``1-16``."""
    symbols = list(symbols)
    if any(len(s) > 1 for s in symbols):
        return f"{symbols[0]}-{symbols[-1]}"
    out, start = [], 0
    for k in range(1, len(symbols) + 1):
        if k == len(symbols) or ord(symbols[k]) != ord(symbols[k - 1]) + 1:
            run = symbols[start:k]
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 2 else "".join(run))
            start = k
    return "".join(out)


def parse_symbols(text: str) -> Alphabet:
    """The alphabet of a ``--symbols SPEC[/BLANKS]`` value (see the module docstring)."""
    spec, slash, blanks = text.partition("/")
    if not spec or (slash and not blanks):
        raise PuzzleError(f"--symbols {text!r}: expected value symbols such as 1-9A-G, 0-9A-F or A-P, "
                          "optionally /BLANKS (e.g. 1-9/*)")
    values: list[str] = []
    for match in _RANGE.finditer(spec):
        if match[1] is not None and (len(match[1]) > 1 or len(match[2]) > 1):
            lo, hi = int(match[1]), int(match[2])
            values += [str(v) for v in range(lo, hi + 1)]
        elif match[1] is not None or match[3] is not None:
            lo, hi = (match[1], match[2]) if match[1] is not None else (match[3], match[4])
            if ord(hi) < ord(lo):
                raise PuzzleError(f"--symbols {text!r}: the range {lo}-{hi} runs backwards")
            values += [chr(c) for c in range(ord(lo), ord(hi) + 1)]
        else:
            values.append(match[5])
    bad = [v for v in values if v.isspace() or v in ",;|/"]
    if bad or len(set(values)) != len(values):
        raise PuzzleError(f"--symbols {text!r}: " + (f"{bad[0]!r} cannot be a symbol" if bad
                                                      else "a symbol is listed twice"))
    blank_set = frozenset(blanks) if blanks else None
    if blank_set and blank_set & set(values):
        raise PuzzleError(f"--symbols {text!r}: {sorted(blank_set & set(values))[0]!r} is both a value and a blank")
    return Alphabet(tuple(values), blank_set)


def candidates(n: int, tokens: bool = False) -> list[Alphabet]:
    """The alphabets an N x N grid may use (``tokens``: its cells are separated, so the
    decimal numbers 1..N are a candidate too)."""
    found: list[Alphabet] = []
    for first, sequence in _SEQUENCES:
        if first <= n <= len(sequence):
            found.append(Alphabet(tuple(sequence[:n])))
    if tokens and n >= 10:
        found.append(Alphabet(tuple(str(v) for v in range(1, n + 1))))
    return found


def choose(used: set[str], n: int, stated: Alphabet | None, tokens: bool = False,
           need_blank_free: bool = False) -> tuple[Alphabet, dict[str, int]]:
    """The alphabet reading the symbols ``used`` by the N x N grids of a file, and its table.

    ``stated`` is the ``--symbols`` alphabet (it must fit); otherwise the one candidate that
    fits, and among several the reading must agree, else a PuzzleError names them.
    ``need_blank_free``: the grids are solutions, so no symbol may be a blank.
    """
    if stated is not None:
        alphabet = stated.sized(n)
        blanks = alphabet.blanks_for(used, pair=True)
        if blanks is None or (need_blank_free and used - set(alphabet.values)):
            extra = sorted(used - set(alphabet.values))
            raise PuzzleError(f"the grid uses {', '.join(map(repr, extra[:4]))}, which --symbols "
                              f"{alphabet.spec} does not list" + (" (a solution has no blanks)"
                                                                   if need_blank_free else ""))
        return alphabet, alphabet.table(blanks)
    options = candidates(n, tokens)
    for pair in (False, True):
        fitting = []
        for alphabet in options:
            blanks = alphabet.blanks_for(used, pair)
            if blanks is None or (need_blank_free and used - set(alphabet.values)):
                continue
            fitting.append((alphabet, alphabet.table(blanks)))
        if fitting:
            break
    if not fitting:
        shown = ", ".join(repr(s) for s in sorted(used)[:12])
        raise PuzzleError(f"the {n} x {n} grid's symbols ({shown}) fit no alphabet of {n} values "
                          f"({', '.join(a.spec for a in options)}) with one blank; "
                          f"say which with --symbols (e.g. --symbols {options[0].spec}/.)")
    readings = {tuple(sorted((s, v) for s, v in table.items() if s in used)): (a, table)
                for a, table in fitting}
    if len(readings) > 1:
        names = [a.spec for a, _ in fitting]
        raise AmbiguousReading(f"the {n} x {n} grid's symbols fit several alphabets ({', '.join(names)}), "
                          f"which read it differently: say which with --symbols {names[0]} or "
                          f"--symbols {names[1]}")
    return fitting[0]


def decode(words: list[str], n: int, stated: Alphabet | None = None, tokens: bool = False,
           blank_free: bool = False) -> np.ndarray:
    """The grids spelt by ``words`` (each the N*N symbols of one grid, a string of characters or,
    with ``tokens``, a list of number tokens) as a (len(words), n, n) array, 0 for blanks, with
    one alphabet for them all (:func:`choose`).  A symbol that fits no alphabet is a PuzzleError
    whose ``row`` is the index of the first word holding it."""
    used = set().union(*map(set, words)) if words else set()
    try:
        _, table = choose(used, n, stated, tokens, blank_free)
    except PuzzleError as err:
        if "fit no alphabet" in err.problem or "does not list" in err.problem:
            raise _first_stray(words, n, stated, tokens, blank_free) from None
        raise
    if tokens:
        values = [[table[t] for t in word] for word in words]
        return np.array(values, dtype=np.int64).reshape(len(words), n, n)
    joined = "".join(words).translate({ord(s): v for s, v in table.items()})
    return np.frombuffer(joined.encode("latin-1"), dtype=np.uint8).astype(np.int64).reshape(len(words), n, n)


def _first_stray(words, n: int, stated: Alphabet | None, tokens: bool, blank_free: bool = False) -> PuzzleError:
    """The error for the first symbol that the likeliest alphabet (the stated or first candidate,
    with the file's commonest other symbol as its blank, none in a solution) cannot read."""
    alphabet = (stated.sized(n) if stated else candidates(n, tokens)[0])
    counts: dict[str, int] = {}
    for word in words:
        for symbol in word:
            if symbol not in alphabet.values:
                counts[symbol] = counts.get(symbol, 0) + 1
    blanks = frozenset() if blank_free else alphabet.blanks if alphabet.blanks is not None else \
        frozenset([max(counts, key=counts.get)] if counts else []) | (_PAIR - set(alphabet.values))
    for k, word in enumerate(words):
        for pos, symbol in enumerate(word, start=1):
            if symbol not in alphabet.values and symbol not in blanks:
                where = "cell" if tokens else "character"
                what = f"a symbol {alphabet.spec} (a solution has no blanks)" if blank_free else \
                    f"a blank ({'/'.join(repr(b) for b in sorted(blanks))}) or a symbol {alphabet.spec}"
                return PuzzleError(f"{where} {pos} is {symbol!r}, not {what}; another alphabet can be named "
                                   "with --symbols", row=k)
    return PuzzleError(f"the symbols fit no alphabet of {n} values: say which with --symbols")
