#!/usr/bin/env python3
"""Issue 16's measurement: the (formulation, configuration) pairs of :data:`PAIRS` on the sets of
studies/hard-sudoku.yaml, with its limit and presets, one solve at a time.

    python studies/hard_sudoku.py                      # every pair; records to results/hard-sudoku/study.jsonl
    python studies/hard_sudoku.py --summary-only       # the summary from the records already there

A configuration name is looked up in :data:`PRESETS` and the yaml's ``solver_configs`` (adapter + options, passed
as ``SolveOptions.solver_options``), else it is a registered solver.  Every record is a
RunRecord (``root_lp_time`` included) plus ``set``, ``removed`` (the candidates
each propagation rule removed) and the machine's load when the run ended.  The summary
(results/hard-sudoku/study.md) has, per set x configuration: solved count, shifted geometric
mean of the solve time (shift 1 s, unsolved runs at the limit, build time included), median
nodes and median root LP time; then the per-rule removal counts per set.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]

from puzzlebench.io.sets import get_set
from puzzlebench.run.runner import (
    PreparedRun,
    ResolvedRun,
    make_record,
    build,
    configured,
    solve_model,
)
from puzzlebench.solvers.configs import declared, ensure_runnable, resolve
from puzzlebench.run.worker import SolverProcess
from puzzlebench.solvers.contract import SolveOptions

SHIFT = 1.0
PRESETS = {  # beside the study's configurations: HiGHS without the sub-MIPs it stalled in after the root
    "highs-ipm-noheur": {"solver": "highs", "options": {"mip_lp_solver": "ipm", "mip_heuristic_run_rens": False,
                                                        "mip_heuristic_run_rins": False}},
}
PAIRS = [  # in this order; `sets` limits a pair to some of the sets, `max_instances` to the first N of each
    {"formulation": "propagated-subsets", "solver": "cpsat"},
    {"formulation": "propagated-alldiff", "solver": "cpsat"},
    {"formulation": "propagated-alldiff", "solver": "scip-alldiff"},
    {"formulation": "propagated-subsets", "solver": "scip-cp"},
    {"formulation": "propagated-subsets", "solver": "scip-cp-norestart"},
    {"formulation": "propagated-subsets", "solver": "highs-ipm-noheur", "sets": ["sudoku/blank65-36"]},
    {"formulation": "propagated-subsets", "solver": "highs-ipm-noheur", "sets": ["sudoku/frisch25"],
     "max_instances": 3},
    {"formulation": "cp-natural", "solver": "cpsat"},
]
_HANDLER = re.compile(r"alldiff: (\d+) calls, ([\d.]+) s, (\d+) values removed")


def load() -> str:
    pressure = Path("/proc/pressure/cpu")
    some = pressure.read_text().split("\n")[0] if pressure.exists() else "n/a"
    return f"loadavg {' '.join(f'{x:.2f}' for x in os.getloadavg())}; cpu pressure {some}"


def run_pairs(study: dict, out: Path) -> None:
    configs = declared({**PRESETS, **(study.get("solver_configs") or {})})
    done = {(r["set"], r["instance"], r["formulation"], r["solver"]) for r in read(out)}
    with SolverProcess() as process, out.open("a") as sink:
        for pair in study["pairs"]:
            name = pair["solver"]
            config = resolve(name, configs)
            ensure_runnable(config)
            options = SolveOptions(time_limit=float(study["time_limit"]), threads=int(study["threads"]), seed=0)
            for set_name in pair.get("sets", study["instance_sets"]):
                entries = get_set(set_name).entries()[: pair.get("max_instances") or None]
                for entry in entries:
                    key = (set_name, entry.name, pair["formulation"], name)
                    if key in done:
                        continue
                    resolved = ResolvedRun.of(entry.puzzle, entry.name, pair["formulation"],
                                              *configured(config, options))
                    built = build(entry.puzzle, resolved.formulation)
                    result, rounds, wall = solve_model(built.model, config, options, process)
                    record = make_record(PreparedRun(resolved, built), result, rounds, wall).to_dict()
                    record.update(set=set_name, removed=built.model.presolve_info.get("removed"), load=load(),
                                  solution=None)
                    sink.write(json.dumps(record) + "\n")
                    sink.flush()
                    print(f"{set_name} {entry.name} {pair['formulation']} {name}: {record['status']} "
                          f"{record['solver_time']:.2f} s, {record['nodes']} nodes", flush=True)


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def solved(record: dict) -> bool:
    return record["status"] in ("optimal", "infeasible") and record["verified"] is not False


def sgm(times: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(t + SHIFT) for t in times)) - SHIFT


def summary(records: list[dict], limit: float) -> str:
    lines = ["| set | formulation | configuration | solved | SGM time (s) | median nodes | median root LP (s) "
             "| median build (s) |", "|---|---|---|---|---|---|---|---|"]
    keys = sorted({(r["set"], r["formulation"], r["solver"]) for r in records},
                  key=lambda k: (k[0], k[1], k[2]))
    for key in keys:
        runs = [r for r in records if (r["set"], r["formulation"], r["solver"]) == key]
        times = [(r["solver_time"] or 0) + (r["build_time"] or 0) if solved(r) else limit for r in runs]
        nodes = [r["nodes"] for r in runs if r["nodes"] is not None]
        roots = [r["root_lp_time"] for r in runs if r.get("root_lp_time") is not None]
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {sum(map(solved, runs))}/{len(runs)} | {sgm(times):.2f} "
                     f"| {statistics.median(nodes) if nodes else '-':} "
                     f"| {f'{statistics.median(roots):.1f}' if roots else '-'} "
                     f"| {statistics.median(r['build_time'] for r in runs):.3f} |")
    lines += ["", "Search speed and the all-different handler's share (sums over each set's runs):", "",
              "| set | formulation | configuration | nodes | solver s | nodes/s | handler calls | handler s "
              "| ms/call | values removed |", "|---|---|---|---|---|---|---|---|---|---|"]
    for key in keys:
        runs = [r for r in records if (r["set"], r["formulation"], r["solver"]) == key]
        if key[2] == "cpsat":
            continue
        nodes, seconds = sum(r["nodes"] or 0 for r in runs), sum(r["solver_time"] or 0 for r in runs)
        found = [m for m in (_HANDLER.search(r["message"] or "") for r in runs) if m]
        calls, spent, gone = (sum(int(m[1]) for m in found), sum(float(m[2]) for m in found),
                              sum(int(m[3]) for m in found))
        handler = (f"{calls} | {spent:.1f} | {1000 * spent / calls:.2f} | {gone}" if calls else "- | - | - | -")
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {nodes} | {seconds:.1f} | "
                     f"{nodes / seconds if seconds else 0:.0f} | {handler} |")
    lines += ["", "Candidates removed per propagation rule (propagated-subsets), summed over each set:", ""]
    rules = None
    for set_name in sorted({r["set"] for r in records}):
        seen = {}
        for r in records:
            if r["set"] == set_name and r["formulation"] == "propagated-subsets" and r.get("removed"):
                seen[r["instance"]] = r["removed"]
        if not seen:
            continue
        if rules is None:
            rules = list(next(iter(seen.values())))
            lines += ["| set | puzzles | " + " | ".join(rules) + " | candidates left |",
                      "|---|---|" + "---|" * (len(rules) + 1)]
        left = {r["instance"]: r["cols"] for r in records
                if r["set"] == set_name and r["formulation"] == "propagated-subsets"}
        lines.append(f"| {set_name} | {len(seen)} | " + " | ".join(str(sum(v[k] for v in seen.values()))
                                                               for k in rules) + f" | {sum(left.values())} |")
    loads = [r["load"] for r in records if r.get("load")]
    if loads:
        lines += ["", f"Machine load at the first and last run: {loads[0]}; {loads[-1]}."]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--study", default=str(REPO / "studies/hard-sudoku.yaml"))
    parser.add_argument("--summary-only", action="store_true")
    args = parser.parse_args()
    study = yaml.safe_load(Path(args.study).read_text())
    study["pairs"] = PAIRS
    folder = REPO / study["results"]
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / "study.jsonl"
    if not args.summary_only:
        run_pairs(study, out)
    text = summary(read(out), float(study["time_limit"]))
    (folder / "study.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
