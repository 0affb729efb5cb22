#!/usr/bin/env python3
"""Model build time: every registered formulation, a PuLP comparison, and build vs solve time.

    python benchmarks/build_time.py                 # Sudoku 9/16/25/36, largest Kakuro/Takuzu/Killer
    python benchmarks/build_time.py --quick         # 9x9 and the seed puzzles, one repeat (CI smoke run)
    python benchmarks/build_time.py --runs results/runs.parquet

Prints five Markdown tables:

1. build time of each formulation (``puzzlebench.registry.formulations()``), timed
   with ``puzzlebench.run.runner.build`` (the figure stored as ``build_time``), median
   and minimum of ``--repeats`` builds, with the model size;
2. the Sudoku ``binary`` model built with PuLP's modelling objects the way its
   documentation's Sudoku example does (``LpVariable.dicts``, one ``lpSum(...) == 1``
   per cell, unit and digit, one ``== 1`` row per given; build only, no solve)
   against puzzlebench's ``sudoku/binary`` build, and the ratio;
3. writing the Sudoku ``binary`` model as MPS (``Model.to_mps``), which the CBC
   adapter does for every solve, median and minimum of ``--repeats`` writes;
4. the Sudoku ``binary`` model written in a modelling layer (``binary-pulp``, ``binary-pyomo``),
   25x25 (9x9 under ``--quick``): per layer, the layer's own build
   (``build_time - conversion_time``) and the conversion to arrays (``conversion_time``,
   ``puzzlebench.model.layers``), medians of ``--repeats`` builds, and their ratio;
5. from a results store (``--runs``, default ``results/runs.parquet`` when it
   exists): sum(build_time) / sum(solver_time) per formulation and overall.

The instances: Sudoku 9x9 = ``sudoku/top95`` #1, 16x16 = ``sudoku/janko16`` #1,
25x25 = ``sudoku/frisch25`` #1, 36x36 = the first 36x36 puzzle of ``sudoku/ladder``
when that set exists, otherwise a generated one (a valid pattern grid with 65% of
the cells blanked by ``random.Random(36)``); the largest Kakuro, Takuzu and Killer
(most cells) of all shipped sets (``puzzlebench.io.sets.discover_sets()``).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from _util import REPO, machine_line, median, ms, table, timings

SUDOKU_SETS = {9: "sudoku/top95", 16: "sudoku/janko16", 25: "sudoku/frisch25", 36: "sudoku/ladder"}
PULP_TARGET = 50.0     # at least this many times faster than PuLP on 25x25
CONVERSION_TARGET = 1.0  # a layer's conversion to arrays at most this many times its own build
LAYERS = {"PuLP": "binary-pulp", "Pyomo": "binary-pyomo"}
SHARE_TARGET = 0.02    # build time under this share of solver time


def pattern_sudoku(n: int, blank: float, seed: int):
    """A valid N x N grid from the shift pattern, with a ``blank`` share of its cells emptied."""
    import numpy as np

    from puzzlebench.puzzles import Sudoku, default_box_shape
    br, bc = default_box_shape(n)
    r, c = np.indices((n, n))
    grid = (bc * (r % br) + r // br + c) % n + 1
    cells = list(range(n * n))
    random.Random(seed).shuffle(cells)
    flat = grid.ravel().copy()
    flat[cells[: round(blank * n * n)]] = 0
    return Sudoku(flat.reshape(n, n), name=f"pattern{n}-blank{round(100 * blank)}-seed{seed}")


def sudoku_instances(sizes: list[int]) -> list[tuple[str, object]]:
    """(label, puzzle) for each Sudoku size, from the sets named in SUDOKU_SETS."""
    from puzzlebench.errors import PuzzleError
    from puzzlebench.io.sets import get_set
    out = []
    for n in sizes:
        try:
            entries = [e for e in get_set(SUDOKU_SETS[n]).entries() if e.puzzle.shape == (n, n)]
        except PuzzleError:
            entries = []
        if entries:
            out.append((f"{SUDOKU_SETS[n]} {entries[0].name}", entries[0].puzzle))
        elif n == 36:
            puzzle = pattern_sudoku(36, 0.65, 36)
            out.append((f"generated {puzzle.name}", puzzle))
        else:
            raise SystemExit(f"no {n}x{n} puzzle in {SUDOKU_SETS[n]}")
    return out


def largest_instances(puzzles: list[str], smallest: bool = False) -> list[tuple[str, object]]:
    """The puzzle with the most cells (or the fewest) of each kind over every shipped set."""
    from puzzlebench.io.sets import discover_sets
    best: dict[str, tuple[int, str, object]] = {}
    for iset in discover_sets():
        if iset.puzzle not in puzzles:
            continue
        for entry in iset.entries():
            cells = entry.puzzle.shape[0] * entry.puzzle.shape[1]
            key = -cells if smallest else cells
            if iset.puzzle not in best or key > best[iset.puzzle][0]:
                best[iset.puzzle] = (key, f"{iset.name} {entry.name}", entry.puzzle)
    return [(best[p][1], best[p][2]) for p in puzzles if p in best]


def size_of(puzzle) -> str:
    return f"{puzzle.shape[0]}x{puzzle.shape[1]}"


def time_builds(instances, repeats: int) -> list[dict]:
    from puzzlebench.registry import formulations
    from puzzlebench.run.runner import build
    rows = []
    for label, puzzle in instances:
        for info in formulations(puzzle.puzzle):
            build(puzzle, info.name)  # warm-up: first-call costs are not build costs
            times = [build(puzzle, info.name).build_time for _ in range(repeats)]
            stats = build(puzzle, info.name).model.stats()
            rows.append({"puzzle": puzzle.puzzle, "formulation": info.name, "instance": label,
                         "size": size_of(puzzle), "rows": stats.rows, "cols": stats.cols,
                         "nonzeros": stats.nonzeros, "median": median(times), "min": min(times)})
    return rows


def pulp_sudoku(puzzle):
    """The Sudoku binary model as PuLP's documentation writes it (build only)."""
    import pulp
    n, br, bc = puzzle.n, puzzle.box_rows, puzzle.box_cols
    vals = rows = cols = range(1, n + 1)
    boxes = [[(br * i + r + 1, bc * j + c + 1) for r in range(br) for c in range(bc)]
             for i in range(n // br) for j in range(n // bc)]
    prob = pulp.LpProblem("Sudoku_Problem", pulp.LpMinimize)
    choices = pulp.LpVariable.dicts("Choice", (vals, rows, cols), cat="Binary")
    prob += 0, "Arbitrary_Objective_Function"
    for r in rows:
        for c in cols:
            prob += pulp.lpSum([choices[v][r][c] for v in vals]) == 1
    for v in vals:
        for r in rows:
            prob += pulp.lpSum([choices[v][r][c] for c in cols]) == 1
        for c in cols:
            prob += pulp.lpSum([choices[v][r][c] for r in rows]) == 1
        for b in boxes:
            prob += pulp.lpSum([choices[v][r][c] for (r, c) in b]) == 1
    givens = puzzle.givens.tolist()
    for r in rows:
        for c in cols:
            if v := givens[r - 1][c - 1]:
                prob += choices[v][r][c] == 1
    return prob


def pulp_comparison(instances, repeats: int, pulp_repeats: int) -> list[list]:
    from puzzlebench.run.runner import build
    out = []
    for label, puzzle in instances:
        build(puzzle, "binary")
        prob = pulp_sudoku(puzzle)
        ours, pulp_times = [], []
        for i in range(max(repeats, pulp_repeats)):  # interleaved: both see the same allocator state
            ours.append(build(puzzle, "binary").build_time)
            if i < pulp_repeats:
                pulp_times += timings(lambda: pulp_sudoku(puzzle), 1)
        ratio = median(pulp_times) / median(ours)
        out.append([size_of(puzzle), label, len(prob.variables()), len(prob.constraints),
                    ms(median(pulp_times), 1), f"{ms(median(ours), 3)} ({ms(min(ours), 3)})", f"{ratio:.0f}x",
                    f"{min(pulp_times) / min(ours):.0f}x"])
    return out


def layer_times(puzzle, repeats: int) -> list[list]:
    """Per layer of :data:`LAYERS`: its own build and the conversion, medians of ``repeats`` builds
    after a warm-up, and their ratio (a row saying so for a layer that is not installed)."""
    from puzzlebench.errors import PuzzleError
    from puzzlebench.run.runner import build
    out = []
    for layer, name in LAYERS.items():
        try:
            build(puzzle, name)
        except PuzzleError as err:  # Pyomo is an extra
            out.append([layer, f"sudoku/{name}", str(err), "", ""])
            continue
        own, conversion = [], []
        for _ in range(repeats):
            built = build(puzzle, name)
            own.append(built.build_time - built.model.conversion_time)
            conversion.append(built.model.conversion_time)
        out.append([layer, f"sudoku/{name}", ms(median(own), 1), ms(median(conversion), 1),
                    f"{median(conversion) / median(own):.2f}"])
    return out


def mps_write_times(instances, repeats: int) -> list[list]:
    import tempfile

    from puzzlebench.run.runner import build
    out = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.mps"
        for label, puzzle in instances:
            model = build(puzzle, "binary").model
            model.to_mps(path)  # warm-up
            times = timings(lambda: model.to_mps(path), repeats)
            out.append([size_of(puzzle), label, f"{path.stat().st_size / 1e3:.0f}",
                        f"{ms(median(times), 2)} ({ms(min(times), 2)})"])
    return out


def build_share(path: Path) -> tuple[list[list], float | None]:
    import pandas as pd
    runs = pd.read_parquet(path, columns=["puzzle", "formulation", "build_time", "solver_time"])
    runs = runs.dropna(subset=["build_time", "solver_time"])
    out = []
    for (puzzle, formulation), g in runs.groupby(["puzzle", "formulation"], sort=True):
        out.append([f"{puzzle}/{formulation}", len(g), f"{g.build_time.sum():.3f}",
                    f"{g.solver_time.sum():.2f}", f"{100 * g.build_time.sum() / g.solver_time.sum():.2f}%",
                    ms(g.build_time.median()), ms(g.solver_time.median(), 1)])
    total = runs.build_time.sum() / runs.solver_time.sum() if len(runs) else None
    if total is not None:
        out.append(["**all**", len(runs), f"{runs.build_time.sum():.3f}", f"{runs.solver_time.sum():.2f}",
                    f"**{100 * total:.2f}%**", ms(runs.build_time.median()), ms(runs.solver_time.median(), 1)])
    return out, total


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="9x9 and the smallest puzzles, one repeat")
    ap.add_argument("--repeats", type=int, help="builds per formulation and instance (default 9)")
    ap.add_argument("--pulp-repeats", type=int, help="PuLP builds per size (default 3)")
    ap.add_argument("--runs", type=Path, help="results store for the build share "
                                              "(default results/runs.parquet when it exists)")
    args = ap.parse_args(argv)
    repeats = args.repeats or (1 if args.quick else 9)
    pulp_repeats = args.pulp_repeats or (1 if args.quick else 3)
    sizes = [9] if args.quick else [9, 16, 25, 36]

    print("# Model build time")
    print(machine_line())
    sudoku = sudoku_instances(sizes)
    others = largest_instances(["killer", "kakuro", "takuzu"], smallest=args.quick)
    rows = time_builds(sudoku + others, repeats)

    sudoku_rows = [r for r in rows if r["puzzle"] == "sudoku"]
    names = sorted({r["formulation"] for r in sudoku_rows})
    labels = [size_of(p) for _, p in sudoku]
    table(["formulation", *[f"{s}: median (min), ms" for s in labels]],
          [[f"sudoku/{name}", *[f"{ms(r['median'], 3)} ({ms(r['min'], 3)})" for s in labels for r in sudoku_rows
                                if r["formulation"] == name and r["size"] == s]] for name in names],
          title=f"Sudoku build time, median and minimum of {repeats} (puzzlebench.run.runner.build)")
    print("\ninstances: " + "; ".join(f"{size_of(p)} = {label}" for label, p in sudoku))
    table(["formulation", "size", "model (rows x cols, nonzeros)"],
          [[f"sudoku/{r['formulation']}", r["size"], f"{r['rows']} x {r['cols']}, {r['nonzeros']}"]
           for r in sudoku_rows], title="Sudoku model sizes")
    table(["formulation", "instance", "size", "model (rows x cols, nonzeros)", "median (ms)", "min (ms)"],
          [[f"{r['puzzle']}/{r['formulation']}", r["instance"], r["size"],
            f"{r['rows']} x {r['cols']}, {r['nonzeros']}", ms(r["median"], 3), ms(r["min"], 3)]
           for r in rows if r["puzzle"] != "sudoku"],
          title=f"{'Smallest' if args.quick else 'Largest'} shipped Killer, Kakuro and Takuzu, "
                f"median of {repeats}")

    comparison = pulp_comparison(sudoku, repeats, pulp_repeats)
    table(["size", "instance", "variables", "constraints", "PuLP (ms)", "puzzlebench: median (min), ms",
           "PuLP / puzzlebench (medians)", "(minimums)"],
          comparison, title=f"Sudoku binary model: PuLP modelling objects vs puzzlebench "
                            f"(build only; PuLP median of {pulp_repeats}, puzzlebench of {repeats})")
    print("\nThe two builds are interleaved. Large builds vary within a process: most of a 25x25 or "
          "36x36 build can be the kernel mapping fresh pages for numpy arrays, after glibc returned the "
          "memory freed by the previous build (with its trim and mmap thresholds raised by mallopt, "
          "every 25x25 binary build takes about 0.5 ms).")
    for row in comparison:
        if row[0] == "25x25":
            ok = float(row[-2].rstrip("x")) >= PULP_TARGET
            print(f"target: at least {PULP_TARGET:.0f}x faster than PuLP on 25x25: medians {row[-2]}, "
                  f"minimums {row[-1]} ({'met' if ok else 'NOT met'} on medians)")

    table(["size", "instance", "MPS (kB)", "write: median (min), ms"], mps_write_times(sudoku, repeats),
          title=f"Sudoku binary model written as MPS (the CBC adapter's input), median of {repeats}")

    puzzle = next((p for _, p in sudoku if p.n == 25), sudoku[-1][1])
    layers = layer_times(puzzle, repeats)
    table(["layer", "formulation", "layer's own build (ms)", "conversion (ms)", "conversion / own build"], layers,
          title=f"Sudoku binary model written in a modelling layer, {size_of(puzzle)}: the layer's build "
                f"and the conversion to arrays (medians of {repeats})")
    for row in layers:
        if row[-1]:
            ok = float(row[-1]) <= CONVERSION_TARGET
            print(f"target: {row[0]}'s conversion at most {CONVERSION_TARGET:g}x its own build: {row[-1]}x "
                  f"({'met' if ok else 'NOT met'})")

    runs = args.runs or REPO / "results" / "runs.parquet"
    if runs.is_file():
        share, total = build_share(runs)
        table(["formulation", "runs", "sum build (s)", "sum solver (s)", "build / solver",
               "median build (ms)", "median solver (ms)"], share,
              title=f"Build time as a share of solver time ({runs})")
        if total is not None:
            print(f"\ntarget: sum(build_time) / sum(solver_time) under {100 * SHARE_TARGET:.0f}% overall: "
                  f"{100 * total:.2f}% ({'met' if total < SHARE_TARGET else 'NOT met'})")
    else:
        print(f"\n(no results store at {runs}: run the workflow or pass --runs for the build share)")
    print(f"\n{machine_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
