"""A 2017 text-classification input pipeline on TF 1.3's tf.contrib.data, with TF 1.4's flags.

    python train.py --data_file lines.txt --batch_size 4 --embedding_dim 6 --groups 2

Reads "label<TAB>w1 w2 ..." lines, maps them with ``num_threads`` and
``output_buffer_size`` (TF 1.2-1.3), pads each batch, and builds a grouped
projection whose width is ``embedding_dim / groups`` (a float under Python 3,
which TF 1.x accepted as a dimension). Prints the flags as TF <= 1.4 kept them
and, per batch, the labels and the sum of the word ids.
"""
import numpy as np
import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_string("data_file", "lines.txt", "Input file.")
flags.DEFINE_integer("batch_size", 4, "Batch size.")
flags.DEFINE_integer("embedding_dim", 6, "Embedding size.")
flags.DEFINE_integer("groups", 2, "Projection groups.")
FLAGS = flags.FLAGS
FLAGS._parse_flags()
print("\nParameters:")
for attr, value in sorted(FLAGS.__flags.items()):
    if attr in ("data_file", "batch_size", "embedding_dim", "groups"):
        print("{}={}".format(attr.upper(), value))
print("")

VOCAB = {"<pad>": 0}


def word_ids(line):
    label, text = line.decode("utf-8").split("\t")
    ids = []
    for word in text.split():
        ids.append(VOCAB.setdefault(word, len(VOCAB)))
    return np.int64(label), np.array(ids, dtype=np.int64)


def parse(line):
    label, ids = tf.py_func(word_ids, [line], [tf.int64, tf.int64])
    ids.set_shape([None])
    label.set_shape([])
    return label, ids


dataset = tf.contrib.data.TextLineDataset(FLAGS.data_file)
dataset = dataset.map(parse, num_threads=1, output_buffer_size=2 * FLAGS.batch_size)
dataset = dataset.padded_batch(FLAGS.batch_size, padded_shapes=([], [None]))
iterator = dataset.make_initializable_iterator()
labels, ids = iterator.get_next()

width = FLAGS.embedding_dim / FLAGS.groups
embedded = tf.one_hot(ids, depth=FLAGS.embedding_dim)
projection = tf.get_variable("projection", [FLAGS.embedding_dim, width], initializer=tf.ones_initializer())
projected = tf.tensordot(embedded, projection, axes=1)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(iterator.initializer)
    step = 0
    while True:
        try:
            batch_labels, batch_ids, batch_projected = sess.run([labels, ids, projected])
        except tf.errors.OutOfRangeError:
            break
        print("batch %d labels %s ids_sum %d width %d" % (
            step, list(batch_labels), batch_ids.sum(), batch_projected.shape[-1]))
        step += 1
print("batches", step)
