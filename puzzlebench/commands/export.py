"""``puzzlebench export``: write a formulation's model as MPS."""

from __future__ import annotations


def register(sub) -> None:
    from ._common import add_input_arguments
    p = sub.add_parser("export", help="write the model of a puzzle as an MPS file")
    add_input_arguments(p)
    p.add_argument("--formulation", default="binary", help="formulation name (default binary)")
    p.add_argument("-o", "--output", required=True, help="output .mps file")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..runner import build
    from ._common import read_entries
    entry = read_entries(args)[0]
    model = build(entry.puzzle, args.formulation).model
    model.to_mps(args.output)
    s = model.stats()
    print(f"wrote {args.output}: {s.rows} rows, {s.cols} columns ({s.binaries} binary, "
          f"{s.integers} integer), {s.nonzeros} nonzeros")
    return 0
