"""Several record readers at once, as a TF1 graph's reader threads read: each
thread reads a file of its own, and their records take turns.

A record of a few MB costs its reader a CRC and two copies (about 0.7 ms per MB on
one core), so a single ``TFRecordDataset`` is the slowest stage of a pipeline of
large records, where the seeds' queue graphs had ``num_threads`` readers on the
filename queue. :func:`read_in_parallel` gives the ``tf.data`` twin the same
readers.
"""
from __future__ import annotations

from collections.abc import Callable

import tensorflow as tf

from tf1_pipelines.options import check_positive_int
from tf1_pipelines.runtime.quiet_tf1 import no_deprecation_warnings


def read_in_parallel(files: tf.data.Dataset, reader: Callable[[tf.Tensor], tf.data.Dataset],
                     readers: int, ordered: bool) -> tf.data.Dataset:
    """The records of ``files`` (a dataset of file names, e.g. repeated for several
    epochs) read by ``readers`` threads at once, ``reader`` (file name -> dataset of
    records) making each file's records.

    Each thread reads the next file name not yet taken, so with one file repeated
    the threads read consecutive epochs of it, as ``num_threads`` TF1 readers on a
    ``string_input_producer`` did. The records come one from each file in turn
    (``block_length`` 1); ``ordered=False`` hands out whichever is read first.
    With ``ordered=True`` the order depends on the files alone.

    Each thread holds one record ahead, and no file is opened before a thread is
    free for it. ``Dataset.interleave(num_parallel_calls=...)`` reads as fast but
    keeps more records ahead, for open files and future ones (measured on the
    embedded VOC records of 1 MB, two readers: 11 MB more than here at the first
    batch, 14 MB more while running);
    its buffers cannot be set, ``tf.data.experimental.parallel_interleave``'s can.
    That function is deprecated in favour of ``interleave``, whose buffers are the
    reason not to use it here.

    ``readers == 1`` is a plain ``flat_map``. ConfigError for ``readers`` that is not
    a whole number >= 1.
    """
    readers = check_positive_int("readers", readers)
    if readers == 1:
        return files.flat_map(reader)
    with no_deprecation_warnings():
        interleave = tf.data.experimental.parallel_interleave(
            reader, cycle_length=readers, block_length=1, sloppy=not ordered,
            buffer_output_elements=1, prefetch_input_elements=0)
    return files.apply(interleave)
