"""The original ``dataset_tool.py`` command line: ``python -m
tf1_pipelines.pipelines.stylegan_lod create_from_images TFRECORD_DIR IMAGE_DIR
--shuffle 1``, also ``extract`` and ``compare``.

The only module of its kind among the pipelines: seed 001 is the one seed that
shipped a command line. It imports TensorFlow only after the arguments are
parsed, so ``--help`` is quick.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

PROG = "python -m tf1_pipelines.pipelines.stylegan_lod"


def _parser() -> argparse.ArgumentParser:
    """The original tool's arguments, each with help that shows its default."""
    prog = PROG
    parser = argparse.ArgumentParser(
        prog=prog, description="Tool for creating multi-resolution TFRecords datasets.",
        epilog='Type "%s <command> -h" for more information. Exit status: 0 done (compare: '
               'the datasets are the same), 1 compare found a difference, 2 bad input.' % prog)
    subparsers = parser.add_subparsers(dest="command")
    subparsers.required = True
    p = subparsers.add_parser("create_from_images",
                              description="Create dataset from a directory full of images.",
                              help="Create dataset from a directory full of images.",
                              epilog=f"Example: {prog} create_from_images datasets/mydataset "
                                     "myimagedir")
    p.add_argument("tfrecord_dir", help="New dataset directory to be created (required)")
    p.add_argument("image_dir", help="Directory containing the images (required)")
    p.add_argument("--shuffle", help="Randomize image order (default: %(default)s)", type=int,
                   default=1)
    p.add_argument("--force", action="store_true",
                   help="replace files of the dataset's names that this project did not "
                        "write (default: refuse, naming the file)")
    p = subparsers.add_parser("extract", description="Extract images from dataset.",
                              help="Extract images from dataset.",
                              epilog=f"Example: {prog} extract datasets/mnist mnist-images")
    p.add_argument("tfrecord_dir", help="Directory containing dataset (required)")
    p.add_argument("output_dir", help="Directory to extract the images into (required)")
    p.add_argument("--force", action="store_true",
                   help="overwrite img%%08d.png files that an earlier extract did not write "
                        "(default: refuse, naming the file)")
    p = subparsers.add_parser("compare", description="Compare two datasets. Exit status 1 when "
                              "they differ (images, labels unless ignored, or image count).",
                              help="Compare two datasets.",
                              epilog=f"Example: {prog} compare datasets/mydataset "
                                     "datasets/mnist")
    p.add_argument("tfrecord_dir_a", help="Directory containing first dataset (required)")
    p.add_argument("tfrecord_dir_b", help="Directory containing second dataset (required)")
    p.add_argument("--ignore_labels", help="Ignore labels (default: %(default)s)", type=int,
                   default=1)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The original's command line (``create_from_images``, ``extract``, ``compare``).
    Returns the exit code: 0 done; 1 when ``compare`` finds the datasets differ;
    2 after printing the error of bad input (``Error: ...``)."""
    argv = list(sys.argv if argv is None else argv)
    args = _parser().parse_args(argv[1:] if len(argv) > 1 else ["-h"])
    # Imported only now, so that the help above does not load TensorFlow.
    from tf1_pipelines.cli.command_line import EXIT_BAD_INPUT, EXIT_DIFFERENT, EXIT_OK, error_line
    from tf1_pipelines.errors import ConfigError, DataError

    from .legacy import compare_datasets, create_from_images, extract
    try:
        if args.command == "create_from_images":
            create_from_images(args.tfrecord_dir, args.image_dir, args.shuffle, args.force)
        elif args.command == "extract":
            extract(args.tfrecord_dir, args.output_dir, args.force)
        elif not compare_datasets(args.tfrecord_dir_a, args.tfrecord_dir_b,
                                  args.ignore_labels).same:
            return EXIT_DIFFERENT
    except (DataError, ConfigError) as exc:
        print(error_line(exc, "Error"))
        return EXIT_BAD_INPUT
    return EXIT_OK

if __name__ == "__main__":
    # As `python -m tf1_pipelines` does: the start-up-line filter goes in before
    # anything can load TensorFlow.
    # (without loading TensorFlow, so that --help stays quick).
    from tf1_pipelines.cli.quiet_cli import quiet_startup
    quiet_startup()
    raise SystemExit(main(sys.argv))
