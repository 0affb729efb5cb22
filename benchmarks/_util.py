"""Shared by the benchmark scripts: the machine, timing loops and Markdown tables.

Only the standard library here, so every script can import it before puzzlebench.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

from puzzlebench.store.provenance import cpu_model, cpu_pressure_total

REPO = Path(__file__).resolve().parents[1]


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


class Pressure:
    """Share of a period during which some task waited for a CPU: how loaded the machine was.

    0% on an idle machine; near 100% when the cores were oversubscribed the whole time.
    """

    def __enter__(self):
        self.start, self.t0 = cpu_pressure_total(), time.perf_counter()
        return self

    def __exit__(self, *exc):
        end, wall = cpu_pressure_total(), time.perf_counter() - self.t0
        self.share = None if self.start is None or end is None or wall <= 0 else (end - self.start) / wall

    def __str__(self):
        return "n/a" if self.share is None else f"{100 * self.share:.0f}%"


def machine_line() -> str:
    """One line naming the machine: CPU model, cores, Python, load average (1, 5, 15 min)."""
    return (f"machine: {cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{platform.system()} {platform.release()}; load average {load_average()}")


def timings(func: Callable[[], object], repeats: int) -> list[float]:
    """Wall times (seconds) of ``repeats`` calls of ``func``."""
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        out.append(time.perf_counter() - start)
    return out


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], title: str | None = None) -> None:
    """Print a Markdown table (what the README copies), preceded by its title."""
    if title:
        print(f"\n### {title}\n")
    cells = [[str(c) for c in row] for row in rows]
    widths = [max(len(str(h)), *(len(r[i]) for r in cells)) if cells else len(str(h))
              for i, h in enumerate(headers)]
    print("| " + " | ".join(str(h).ljust(w) for h, w in zip(headers, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in cells:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |")
    sys.stdout.flush()


def ms(seconds: float | None, digits: int = 2) -> str:
    return "n/a" if seconds is None else f"{seconds * 1e3:.{digits}f}"
