"""``puzzlebench compare``: do two results folders tell the same story?"""

from __future__ import annotations

import json

NOTHING_TO_COMPARE = 3
"""The exit code when neither run gives the other a claim of a difference to check."""


HELP = "compare the claims of two results folders (replication, before/after a change)"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    from ._common import fraction
    p = sub.add_parser(
        "compare", help=HELP,
        description="Read RESULTS_A/findings.json and RESULTS_B/findings.json, print the two runs' setups side by "
                    "side (machine, versions, grid, load, noise), the claims of a difference that hold in both, "
                    "those that flipped direction and those that changed verdict, then the replication figures. "
                    "Exit code 0: the runs replicate (no claim flipped, at least --min-share of each run's claims "
                    "of a difference hold in the other, every puzzle keeps one in both, and at least one holds in "
                    "both); 1: they do not; 2: bad input (a findings.json missing, unreadable, of an unknown format "
                    "or with a field of the wrong type); 3: nothing to compare (a run with no claim of a difference, "
                    "or no claim id in common).")
    p.add_argument("results_a", metavar="RESULTS_A", help="a results folder (or its findings.json)")
    p.add_argument("results_b", metavar="RESULTS_B", help="another results folder (or its findings.json)")
    p.add_argument("--min-share", type=fraction, default=0.8, metavar="F",
                   help="share of each run's claims of a difference that must hold in the other (default 0.8)")
    p.add_argument("--puzzles", metavar="P[,P...]",
                   help="the puzzles that must keep a claim of a difference in both runs (default: every puzzle "
                        "with one in either run)")
    p.add_argument("--json", action="store_true", help="print the comparison as one JSON object")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..analysis.compare import as_json, compare, read_findings, report
    a, b = read_findings(args.results_a), read_findings(args.results_b)
    puzzles = None if args.puzzles is None else [p.strip() for p in args.puzzles.split(",") if p.strip()]
    result = compare(a, b, args.min_share, puzzles)
    print(json.dumps(as_json(result)) if args.json else report(result), end="\n" if args.json else "")
    if result.nothing_to_compare is not None:
        return NOTHING_TO_COMPARE
    return 0 if result.replicates else 1
