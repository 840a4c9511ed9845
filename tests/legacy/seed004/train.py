# A 2018 training script around seed 004's data provider: it writes the images
# of a folder as sharded TFRecords of Examples (the post's _convert_to_example
# and TFRecordWriter), then reads batches with batch_inputs, once for
# training (4 readers, RandomShuffleQueue) and once for evaluation (1 reader,
# FIFO), with a Coordinator as in the post. The Dataset class is the minimal
# one batch_inputs needs. Arguments: the image folder and the data folder
# (the data paths).
import argparse
import glob
import os

import numpy as np
import tensorflow as tf
from PIL import Image

import data_provider

SEMANTIC_LEVEL_SETTINGS = [('root', 3)]


class Dataset(object):
    """The dataset batch_inputs reads: TFRecord shards named <subset>-XXXXX-of-YYYYY."""

    def __init__(self, data_dir, subset, height=32, width=32):
        self.data_dir = data_dir
        self.subset = subset
        self.height = height
        self.width = width

    def data_files(self):
        tf_record_pattern = os.path.join(self.data_dir, '%s-*' % self.subset)
        data_files = tf.gfile.Glob(tf_record_pattern)
        if not data_files:
            print('No files found for dataset %s at %s' % (self.subset, self.data_dir))
            return None
        return sorted(data_files)

    def reader(self):
        return tf.TFRecordReader()


def one_hot(index, num):
    label = [0] * num
    label[index] = 1
    return label


def write_shards(image_dir, data_dir, subset, num_shards):
    filenames = sorted(glob.glob(os.path.join(image_dir, '*.jpg')))
    if not tf.gfile.Exists(data_dir):
        tf.gfile.MakeDirs(data_dir)
    for shard in xrange(num_shards):
        output_file = os.path.join(data_dir, '%s-%.5d-of-%.5d' % (subset, shard, num_shards))
        writer = tf.python_io.TFRecordWriter(output_file)
        for index in range(shard, len(filenames), num_shards):
            filename = filenames[index]
            with tf.gfile.FastGFile(filename, 'rb') as f:
                image_buffer = f.read()
            width, height = Image.open(filename).size
            labels = [('root', one_hot(index % 3, 3))]
            example = data_provider._convert_to_example(filename, image_buffer, labels, height, width)
            writer.write(example.SerializeToString())
        writer.close()
    print('Wrote %d images to %d shards' % (len(filenames), num_shards))
    return filenames


def read_batches(data_dir, subset, batch_size, train, num_batches):
    with tf.Graph().as_default():
        dataset = Dataset(data_dir, subset)
        images, labels, filenames = data_provider.batch_inputs(
            dataset, batch_size, train, SEMANTIC_LEVEL_SETTINGS, num_preprocess_threads=4)
        with tf.Session() as sess:
            sess.run(tf.group(tf.global_variables_initializer(), tf.local_variables_initializer()))
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess=sess, coord=coord)
            batches = []
            for step in xrange(num_batches):
                batches.append(sess.run([images, labels['root'], filenames]))
            coord.request_stop()
            coord.join(threads)
    return batches


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('image_dir')
    parser.add_argument('data_dir')
    parser.add_argument('--batch_size', type=int, default=8)
    args = parser.parse_args()

    filenames = write_shards(args.image_dir, args.data_dir, 'train', num_shards=2)
    label_of = dict((os.path.basename(f), index % 3) for index, f in enumerate(filenames))

    for train in (True, False):
        mode = 'train' if train else 'eval'
        for img, lab, names in read_batches(args.data_dir, 'train', args.batch_size, train, 2):
            names = [n.decode() for n in names]
            labels_match = all(lab[i].argmax() == label_of[n] for i, n in enumerate(names))
            print('%s batch %s %s in [-1, 1]: %s labels %s match: %s' % (
                mode, img.shape, img.dtype, bool(img.min() >= -1.0 and img.max() <= 1.0),
                lab.shape, labels_match))


if __name__ == '__main__':
    main()
