"""``puzzlebench batch``: one workflow job, written atomically as JSON lines."""

from __future__ import annotations


def _chunk(text: str) -> tuple[int, int]:
    import argparse
    try:
        k, m = (int(v) for v in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected K/M, got {text!r}") from None
    if not 0 <= k < m:
        raise argparse.ArgumentTypeError(f"chunk {text!r}: need 0 <= K < M")
    return k, m


def register(sub) -> None:
    p = sub.add_parser("batch", help="run one (set, formulations, solver, seed) job into a JSON-lines file",
                       description="Solve every puzzle of an instance set (or chunk K of M) with each "
                                   "formulation and write one JSON record per run, atomically.")
    p.add_argument("--set", required=True, dest="instance_set", help="instance set, e.g. sudoku/top95")
    p.add_argument("--formulation", required=True, metavar="NAME[,NAME...]",
                   help="formulation(s), comma-separated: solved one after another in one process")
    p.add_argument("--solver", required=True, help="solver adapter or configuration")
    p.add_argument("--solver-option", action="append", default=[], metavar="KEY=VALUE",
                   help="a solver option (repeatable), on top of the configuration's own")
    p.add_argument("--solver-name", metavar="NAME",
                   help="the configuration name recorded in 'solver' (default: the --solver name)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--chunk", type=_chunk, default=(0, 1), metavar="K/M", help="0-based chunk K of M")
    p.add_argument("--permutations", type=int, default=0, help="symmetry-permuted copies per instance")
    p.add_argument("--time-limit", type=float, default=60.0)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--max-instances", type=int, default=0, help="only the first N of the set (0 = all)")
    p.add_argument("-o", "--output", required=True, help="output .jsonl file")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..batch import Job, run_job, write_rows_atomically
    from ._common import solver_config
    job = Job(args.instance_set, args.formulation, solver_config(args), args.seed, args.chunk[0], args.chunk[1],
              args.permutations, args.time_limit, args.threads, args.max_instances)
    count = write_rows_atomically(run_job(job), args.output)
    print(f"wrote {count} rows to {args.output}")
    return 0
