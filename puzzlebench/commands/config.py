"""``puzzlebench config check``: check a study file as the workflow would, without running it."""

from __future__ import annotations

from .._tree import TREE

DEFAULT_CONFIG = TREE / "config.yaml"


HELP = "check a workflow config or study file"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    p = sub.add_parser("config", help=HELP,
                       description="puzzlebench config check FILE...: read each study file over the "
                                   "workflow's config.yaml (as snakemake --configfile FILE does), check it "
                                   "against puzzlebench/workflow/config.schema.yaml and plan its jobs. One line per "
                                   "problem, exit 2; else a summary, exit 0.")
    verbs = p.add_subparsers(dest="config_command", required=True, metavar="VERB")
    check = verbs.add_parser("check", help="check study files (exit 2 on the first problem)")
    check.add_argument("files", nargs="*", metavar="FILE", help="study files (none: config.yaml alone)")
    check.add_argument("--no-defaults", action="store_true",
                       help="check FILE alone, not over the workflow's config.yaml")
    check.set_defaults(func=run)


def run(args) -> int:
    from ..errors import PuzzleError
    from ..workflow.config import load_study, merged
    from ..workflow.planner import plan
    config = {} if args.no_defaults or not DEFAULT_CONFIG.is_file() else load_study(DEFAULT_CONFIG)
    for path in args.files:
        config = merged(config, load_study(path))
    try:
        jobs = plan(config)
    except PuzzleError as err:
        if args.files:
            err.locate(args.files[-1] if len(args.files) == 1 else None)
        raise
    runs = sum(job.instances * len(job.formulations) * job.repeats for job in jobs)
    sets = len({job.instance_set for job in jobs})
    print(f"{', '.join(args.files) or DEFAULT_CONFIG}: ok: {len(jobs)} jobs, {sets} sets, "
          f"{runs} runs (permutations not counted)")
    sampled = sorted({job.instance_set for job in jobs if job.names})
    if sampled:
        others = "; the other sets: their first max_instances puzzles" if len(sampled) < sets else ""
        print(f"sampled by calibrated time (sample): {', '.join(sampled)}{others}")
    return 0
