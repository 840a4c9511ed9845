"""Build squeezed, masked inputs of a multiscale flow, as a 2016 Python 2 script.

    python nvp_multiscale_dataset.py --size 4
"""
import argparse

import numpy as np
import tensorflow as tf

from nvp_utils import masked, squeeze

parser = argparse.ArgumentParser()
parser.add_argument("--size", type=int, default=4)
args = parser.parse_args()

image = np.arange(args.size * args.size * 3, dtype=np.float32).reshape(args.size, args.size, 3)
squeezed = squeeze(masked(image))
x = tf.placeholder(tf.float32, squeezed.shape)
total = tf.reduce_sum(x)
with tf.Session() as sess:
    print "shape", squeezed.shape
    print "sum %.1f" % sess.run(total, {x: squeezed})
    print "half", args.size / 2
