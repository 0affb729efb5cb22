"""Figures read from a solver's log: a table of named regular expressions per log section.

The shape is gurobi-logtools': a solver's log is cut into sections (``presolve``,
``root``, ``tree``, ``summary``), each with a list of :class:`Rule`\\ s, regular
expressions whose named groups are the figures they give (``(?P<presolved_rows>\\d+)``).
:meth:`LogTable.parse` returns ``{figure: value}``:

- a figure's value is the one of its match nearest the section's start (the first
  "Presolved: ..." line of a log with restarts, the first tree line with LP iterations);
- a rule may give fixed values when it matches (``Presolve removed all rows and
  columns`` gives 0 presolved rows and columns), competing by position with the others;
- a ``total`` rule adds up the values of all its matches in the section (CP-SAT lists
  its presolved constraints by type);
- numbers are read as ``int`` when they are integers (``'`` as a thousands separator
  allowed), else as ``float``;
- a section with a ``start`` pattern is the text from its first match to the first
  match of ``end`` after it (the rest of the log without ``end``); it gives nothing
  when ``start`` does not match.

The figure names are :class:`~puzzlebench.solvers.contract.SolverResult`'s field names where they are
one of its figures (``presolved_rows``, ``root_lp_time``, ``nodes``, ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

_INTEGER = re.compile(r"[+-]?\d+")


def number(text: str) -> int | float:
    """``text`` as an int when it is an integer (``2'657`` included), else as a float."""
    text = text.replace("'", "")
    return int(text) if _INTEGER.fullmatch(text) else float(text)


@dataclass(frozen=True)
class Rule:
    """A regular expression whose named groups are figures; ``values`` are figures it sets when it
    matches; ``total`` adds up the groups of every match instead of taking the first."""

    pattern: str
    values: Mapping[str, int | float] = field(default_factory=dict)
    total: bool = False
    regex: re.Pattern = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "regex", re.compile(self.pattern, re.MULTILINE))

    @property
    def figures(self) -> set[str]:
        return set(self.regex.groupindex) | set(self.values)


@dataclass(frozen=True)
class Section:
    """A part of the log and the rules read in it (the whole log when ``start`` is None)."""

    name: str
    rules: tuple[Rule, ...]
    start: str | None = None
    end: str | None = None

    def text(self, log: str) -> str | None:
        """The section's text in ``log``, None when it is not there."""
        if self.start is None:
            return log
        begun = re.search(self.start, log, re.MULTILINE)
        if not begun:
            return None
        ended = re.compile(self.end, re.MULTILINE).search(log, begun.end()) if self.end else None
        return log[begun.start():ended.start() if ended else len(log)]

    def parse(self, log: str) -> dict[str, int | float]:
        text = self.text(log)
        if text is None:
            return {}
        found: dict[str, tuple[int, int | float]] = {}  # figure -> (position, value)
        totals: dict[str, int | float] = {}
        for rule in self.rules:
            if rule.total:
                for name in rule.regex.groupindex:
                    totals[name] = sum(number(m[name]) for m in rule.regex.finditer(text))
                continue
            match = rule.regex.search(text)
            if match is None:
                continue
            values = {**rule.values, **{k: number(v) for k, v in match.groupdict().items() if v is not None}}
            for name, value in values.items():
                if name not in found or match.start() < found[name][0]:
                    found[name] = (match.start(), value)
        return {**{name: value for name, (_, value) in found.items()}, **totals}


@dataclass(frozen=True)
class LogTable:
    """A solver's log sections; :meth:`parse` reads every figure they name."""

    sections: tuple[Section, ...] = ()

    @property
    def figures(self) -> set[str]:
        """The names of the figures the table reads."""
        return {name for section in self.sections for rule in section.rules for name in rule.figures}

    def parse(self, log: str) -> dict[str, int | float]:
        """The figures found in ``log`` (a figure absent from the log is absent from the dict; when
        two sections name one figure, the earlier section's value wins)."""
        figures: dict[str, int | float] = {}
        for section in self.sections:
            for name, value in section.parse(log).items():
                figures.setdefault(name, value)
        return figures
