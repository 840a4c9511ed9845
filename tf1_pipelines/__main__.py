"""Command line: ``python -m tf1_pipelines {demo,bench,convert,inspect}``.

This is a program entry point, so unlike the library it may quiet TensorFlow's
start-up noise: the environment variable must be set before TensorFlow loads.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import threading


# TensorFlow's C++ runtime logs start-up notes ("I0000 ... cudart_stub.cc ...")
# before its log level is read, so the CLI filters them out of file descriptor 2.
_NOISE = re.compile(r"^([IWE]\d{4} \d\d:\d\d:\d\d|WARNING: All log messages before absl"
                    r"|To enable the following instructions)")


def _filter_stderr() -> None:
    """Route fd 2 through a pipe that drops TensorFlow's start-up log lines."""
    read_end, write_end = os.pipe()
    real_stderr = os.dup(2)
    os.dup2(write_end, 2)
    os.close(write_end)

    def pump() -> None:
        with os.fdopen(read_end, "rb") as source, os.fdopen(real_stderr, "wb") as sink:
            for line in source:
                if not _NOISE.match(line.decode("utf-8", "replace")):
                    sink.write(line)
                    sink.flush()
    threading.Thread(target=pump, name="stderr-filter", daemon=True).start()


def _quiet_tensorflow() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    if os.environ.get("TF1_PIPELINES_VERBOSE") != "1":
        _filter_stderr()
    import tensorflow as tf  # imported here, after the variable is set
    tf.get_logger().setLevel("ERROR")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tf1_pipelines",
                                     description="Classic TF1 input pipelines on today's TF.")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="seed 000 end to end on the embedded photographs")
    demo.add_argument("--out", default="demo_output", help="output folder (default: %(default)s)")
    demo.add_argument("--data-dir", default=None, help="your own folder of PNGs")
    bench = sub.add_parser("bench", help="throughput of every pipeline and backend")
    bench.add_argument("--pipelines", nargs="*", default=None, help="names (default: all)")
    bench.add_argument("--seconds", type=float, default=3.0, help="measuring time per case")
    bench.add_argument("--rounds", type=int, default=2, help="alternating rounds per case")
    bench.add_argument("--json", default=None, help="also write the results as JSON")
    convert = sub.add_parser("convert", help="seed 000: PNG folder -> patch TFRecords")
    convert.add_argument("data_dir")
    convert.add_argument("save_dir")
    convert.add_argument("--tfrecord-num", type=int, default=10)
    convert.add_argument("--patch-size", type=int, default=96)
    inspect = sub.add_parser("inspect", help="count and verify the records of TFRecord files")
    inspect.add_argument("paths", nargs="+")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    _quiet_tensorflow()
    from tf1_pipelines.errors import ConfigError, DataError
    try:
        if args.command == "demo":
            from tf1_pipelines.demo import run_demo
            run_demo(args.out, args.data_dir)
        elif args.command == "bench":
            from tf1_pipelines.bench import run_bench
            run_bench(args.pipelines, args.seconds, args.rounds, args.json)
        elif args.command == "convert":
            from tf1_pipelines.demo import build_records
            count = build_records(args.data_dir, args.save_dir, args.tfrecord_num)
            print(f"example number: {count}")
        elif args.command == "inspect":
            from tf1_pipelines.records.reader import count_records
            for path, count in count_records(args.paths).items():
                print(f"{path}: {count} records")
    except (DataError, ConfigError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
