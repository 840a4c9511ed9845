"""Command line: ``python -m tf1_pipelines {demo,bench,convert,inspect,cache,serve}``.

This is a program entry point, so unlike the library it may quiet TensorFlow's
start-up noise: the environment variable must be set before TensorFlow loads.
"""
from __future__ import annotations

import argparse
import sys

from tf1_pipelines.cli.quiet_cli import quiet_tensorflow as _quiet_tensorflow
from tf1_pipelines.cli.service_cli import add_serve_parser, run_serve


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tf1_pipelines",
                                     description="Classic TF1 input pipelines on today's TF.")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="seed 000 end to end on the embedded photographs")
    demo.add_argument("--out", default="demo_output", help="output folder (default: %(default)s)")
    demo.add_argument("--data-dir", default=None,
                      help="your own folder of PNGs (default: the embedded photographs)")
    bench = sub.add_parser("bench", help="throughput of every pipeline and backend")
    bench.add_argument("--pipelines", nargs="*", default=None, help="names (default: all)")
    bench.add_argument("--seconds", type=float, default=None,
                       help="measuring time per case (default: 1.0)")
    bench.add_argument("--rounds", type=int, default=None,
                       help="alternating rounds, the median counts (default: 2)")
    bench.add_argument("--scale", type=int, default=1,
                       help="N: N x seconds, N - 1 more rounds, N x in-memory data (default: 1)")
    bench.add_argument("--json", default=None,
                       help="also write the results as JSON to this file (default: none)")
    bench.add_argument("--plot", default=None,
                       help="also write a PNG bar chart of the results to this file (default: none)")
    convert = sub.add_parser("convert", help="seed 000: PNG folder -> patch TFRecords")
    convert.add_argument("data_dir", help="folder of PNG images (required)")
    convert.add_argument("save_dir", help="folder for data0.tfrecords ... (required)")
    convert.add_argument("--tfrecord-num", type=int, default=10,
                         help="number of record files, written round-robin (default: %(default)s)")
    convert.add_argument("--patch-size", type=int, default=96,
                         help="side of the square HR patches in pixels (default: %(default)s)")
    convert.add_argument("--force", action="store_true",
                         help="replace data<N>.tfrecords / sample_num.txt files of save_dir that "
                              "this project did not write (default: refuse, naming the file)")
    inspect = sub.add_parser("inspect", help="count and verify the records of TFRecord files")
    inspect.add_argument("paths", nargs="+", metavar="PATH",
                         help="TFRecord files, or folders whose *.tfrecords (*.tfrecord, *.tfr, "
                              "<subset>-NNNNN-of-NNNNN) files are all checked (required)")
    inspect.add_argument("--patch-size", type=int, default=96,
                         help="div2k_sr records: the patch side the reader is loaded with "
                              "(default: %(default)s, the pipeline's)")
    cache = sub.add_parser("cache", help="list or clear the data and records built on first use")
    cache.add_argument("action", choices=["list", "clear"], help="list or clear (required)")
    add_serve_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "cache":  # needs no TensorFlow
        from tf1_pipelines.cli.cache import run_cache_command
        return run_cache_command(args.action)
    _quiet_tensorflow()
    from tf1_pipelines.cli.cli_errors import run_reporting_errors
    return run_reporting_errors(lambda: _run(args))


def _run(args: argparse.Namespace) -> int:
    """One command of the parser but ``cache``; returns its exit status."""
    if args.command == "demo":
        from tf1_pipelines.cli.demo import run_demo
        run_demo(args.out, args.data_dir)
    elif args.command == "bench":
        from tf1_pipelines.bench import run_bench
        run_bench(args.pipelines, args.seconds, args.rounds, args.json, args.plot, args.scale)
    elif args.command == "convert":
        from tf1_pipelines.cli.demo import build_records
        count = build_records(args.data_dir, args.save_dir, args.tfrecord_num, args.patch_size,
                              args.force)
        print(f"example number: {count}")
    elif args.command == "serve":
        return run_serve(args)
    elif args.command == "inspect":
        from tf1_pipelines.cli.inspect_records import check_file, run_inspect
        return run_inspect(args.paths, lambda path: check_file(path, args.patch_size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
