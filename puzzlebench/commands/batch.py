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


HELP = "run one (set, formulations, solver, seed) job into a JSON-lines file"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    from ._common import non_negative, number_in, seconds, seed, threads
    p = sub.add_parser("batch", help=HELP,
                       description="Solve every puzzle of an instance set (or chunk K of M) with each "
                                   "formulation and write the job's chunk file, atomically: a header "
                                   "listing the planned runs, one JSON record per run, an end line. The job "
                                   "is given whole with --job (as the workflow does) or by the options "
                                   "--set, --formulation, --solver and those after them.")
    p.add_argument("--job", metavar="JSON", help="the whole job, as puzzlebench.run.jobs.Job.to_json writes it")
    p.add_argument("--set", dest="instance_set", help="instance set, e.g. sudoku/top95")
    p.add_argument("--formulation", metavar="NAME[,NAME...]",
                   help="formulation(s), comma-separated: solved one after another in one process")
    p.add_argument("--solver", help="solver adapter or configuration")
    p.add_argument("--solver-option", action="append", default=[], metavar="KEY=VALUE",
                   help="a solver option (repeatable), on top of the configuration's own")
    p.add_argument("--solver-name", metavar="NAME",
                   help="the configuration name recorded in 'solver' (default: the --solver name)")
    p.add_argument("--seed", type=seed, default=0)
    p.add_argument("--chunk", type=_chunk, default=(0, 1), metavar="K/M", help="0-based chunk K of M")
    p.add_argument("--permutations", type=number_in(int, 0, 10000), default=0,
                   help="symmetry-permuted copies per instance")
    p.add_argument("--time-limit", type=seconds, default=60.0)
    p.add_argument("--threads", type=threads, help="solver threads (default 1, or the job's; given, it "
                                                   "overrides the job's, as Snakemake scales threads to --cores)")
    p.add_argument("--max-instances", type=non_negative, default=0, help="only the first N of the set (0 = all)")
    p.add_argument("--repeats", type=number_in(int, 1, 1000), default=1,
                   help="runs of each (instance, formulation), recorded in the repeat column (default 1)")
    p.add_argument("-o", "--output", required=True, help="output .jsonl file")
    p.set_defaults(func=run)


def job_of(args):
    """The Job of ``--job``, or of the separate options."""
    from dataclasses import replace

    from ..errors import PuzzleError
    from ..run.jobs import Job
    from ..solvers.configs import ensure_runnable
    from ._common import solver_config
    if args.job is not None:
        if args.solver_option or args.solver_name:
            raise PuzzleError("--solver-option and --solver-name go with --solver, not --job (the job names "
                              "its configuration's adapter and options)")
        job = Job.from_json(args.job)
        ensure_runnable(job.solver_config)  # the options on the solver, before any run
    else:
        missing = [f"--{name}" for name, value in (("set", args.instance_set), ("formulation", args.formulation),
                                                   ("solver", args.solver)) if value is None]
        if missing:
            raise PuzzleError(f"batch needs --job, or {', '.join(missing)}")
        config = solver_config(args)
        job = Job(args.instance_set, args.formulation, config.name, args.seed, args.chunk[0], args.chunk[1],
                  args.permutations, args.time_limit, 1, args.max_instances,
                  adapter=config.adapter, solver_options=dict(config.options), repeats=args.repeats)
    return (job if args.threads is None else replace(job, threads=args.threads)).validated("batch")


def run(args) -> int:
    from ..run.batch import run_job, write_rows_atomically
    count = write_rows_atomically(run_job(job_of(args)), args.output)
    print(f"wrote {count} lines to {args.output}")
    return 0
