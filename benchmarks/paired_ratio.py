"""The ratio of two bench cases of one pipeline, round by round.

    python benchmarks/paired_ratio.py PIPELINE CASE_A CASE_B [--rounds R] [--seconds S]

e.g. ``python benchmarks/paired_ratio.py voc_segmentation dataset queue --rounds 6``.
Each round measures case A, then case B, each in a process of its own exactly as
``python -m tf1_pipelines bench`` does (``measure_isolated``), and takes the ratio
of their rates. Prints the median ratio and its range over the rounds: on a noisy
machine the pair of one round sees the same load, so this is steadier than the
ratio of two cases' rates taken from different rounds.
"""
from __future__ import annotations

import argparse
import os
import statistics

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from tf1_pipelines.bench.isolation import measure_isolated, prepare  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pipeline")
    parser.add_argument("case_a")
    parser.add_argument("case_b")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=1.5)
    args = parser.parse_args()
    prepare(args.pipeline)
    rates: list[tuple[float, float]] = []
    for _ in range(args.rounds):
        a = measure_isolated(args.pipeline, args.case_a, args.seconds).examples_per_s
        b = measure_isolated(args.pipeline, args.case_b, args.seconds).examples_per_s
        rates.append((a, b))
    ratios = [a / b for a, b in rates]
    print(f"{args.pipeline}: {args.case_a} / {args.case_b} = {statistics.median(ratios):.2f} "
          f"(median of {args.rounds} rounds; {min(ratios):.2f}-{max(ratios):.2f}); "
          f"median rates {statistics.median(a for a, _ in rates):.0f} and "
          f"{statistics.median(b for _, b in rates):.0f} examples/s")


if __name__ == "__main__":
    main()
