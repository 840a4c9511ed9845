"""Feed a FIFOQueue from a Python thread and close the session at the end, as 2016 input scripts did.

    python queue_feeder_2016.py --batches 5

The feeder thread runs ``sess.run(enqueue_op)`` forever; the main thread
dequeues ``--batches`` batches of 4 and prints each batch's values, then the
``with tf.Session()`` block closes the session, which cancels the enqueue the
feeder is blocked in. Under TensorFlow 1.x that thread died of CancelledError
and the script exited 0.
"""
import argparse
import threading

import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--batches", type=int, default=5)
args = parser.parse_args()

value = tf.placeholder(tf.int32, shape=[])
queue = tf.FIFOQueue(capacity=8, dtypes=[tf.int32], shapes=[[]])
enqueue_op = queue.enqueue([value * value])
batch = queue.dequeue_many(4)


def feed(sess):
    i = 0
    while True:
        sess.run(enqueue_op, feed_dict={value: i})
        i += 1


with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feeder = threading.Thread(target=feed, args=(sess,))
    feeder.daemon = True
    feeder.start()
    for step in range(args.batches):
        values = sess.run(batch)
        print("batch %d: %s" % (step, " ".join(str(v) for v in values)))
print("done")
