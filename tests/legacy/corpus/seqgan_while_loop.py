# A recurrent unit unrolled by hand with control_flow_ops.while_loop and TensorArrays, in the
# style of the 2017 sequence-GAN code (Python 2: print statements, xrange, cPickle of the
# oracle's parameters opened in text mode), plus map_fn / cond / case / stack taken from
# TensorFlow's internal modules as such code imported them.
import sys

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import tensor_array_ops, control_flow_ops
from tensorflow.python.ops import functional_ops, array_ops
import cPickle

params = cPickle.load(open(sys.argv[1]))
decay = params['decay']
xs = np.array(params['xs'], dtype=np.float32)
seq_len = len(xs)

inputs = tf.constant(xs)
ta_x = tensor_array_ops.TensorArray(dtype=tf.float32, size=seq_len)
ta_x = ta_x.unstack(inputs)
outputs = tensor_array_ops.TensorArray(dtype=tf.float32, size=seq_len, dynamic_size=False, infer_shape=True)


def _recurrence(i, h_tm1, outputs):
    h_t = decay * h_tm1 + ta_x.read(i)
    outputs = outputs.write(i, h_t)
    return i + 1, h_t, outputs

_, h_last, outputs = control_flow_ops.while_loop(
    cond=lambda i, _1, _2: i < seq_len,
    body=_recurrence,
    loop_vars=(tf.constant(0, dtype=tf.int32), tf.constant(0.0), outputs))
hidden = outputs.stack()

squares = functional_ops.map_fn(lambda v: v * v, inputs)
flag = tf.placeholder(tf.bool, [])
picked = control_flow_ops.cond(flag, lambda: tf.reduce_sum(inputs), lambda: tf.reduce_max(inputs))
which = tf.placeholder(tf.int32, [])
cased = control_flow_ops.case([(tf.equal(which, 0), lambda: tf.constant(10.0)),
                               (tf.equal(which, 1), lambda: tf.constant(20.0))],
                              default=lambda: tf.constant(30.0))
pairs = array_ops.stack([inputs, squares], axis=1)
first, second = array_ops.unstack(pairs, axis=1)

with tf.Session() as sess:
    h, last, sq, p = sess.run([hidden, h_last, squares, second])
    print 'hidden:', ' '.join('%.5f' % v for v in h)
    print 'last: %.5f' % last
    print 'squares:', ' '.join('%.1f' % v for v in sq)
    print 'unstacked:', ' '.join('%.1f' % v for v in p)
    for f in [True, False]:
        print 'cond %s: %.1f' % (f, sess.run(picked, {flag: f}))
    for k in xrange(3):
        print 'case %d: %.1f' % (k, sess.run(cased, {which: k}))
