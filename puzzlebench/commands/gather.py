"""``puzzlebench gather``: the results store from job files, as the workflow's gather rule builds it."""

from __future__ import annotations

import sys


HELP = "build the results store (runs.parquet, runs.csv, ...) from job files"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    p = sub.add_parser("gather", help=HELP,
                       description="Check that every chunk file written by `puzzlebench batch` is whole "
                                   "(its planned runs, each once, and its end line), then write "
                                   "runs.parquet, runs.csv, noise.csv and anomalies.csv into OUT_DIR. "
                                   "A chunk that is not whole is refused and nothing is written.")
    p.add_argument("jobs", nargs="+", metavar="JOBFILE", help="chunk files (.jsonl) of `puzzlebench batch`")
    p.add_argument("-o", "--out-dir", required=True, metavar="OUT_DIR", help="where the store goes")
    p.add_argument("--manifest", metavar="FILE", help="also write the counts as JSON to FILE, last "
                                                      "(the workflow's mark that the gather succeeded)")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..store.results import gather
    runs, anomalies = gather(args.jobs, args.out_dir, args.manifest)
    print(f"gathered {len(runs)} runs from {len(args.jobs)} job file(s) into {args.out_dir}")
    if len(anomalies):
        kinds = anomalies["kind"].value_counts()
        print(f"WARNING: {len(anomalies)} anomalies ({', '.join(f'{n} {k}' for k, n in kinds.items())}): "
              f"see {args.out_dir}/anomalies.csv", file=sys.stderr)
    return 0
