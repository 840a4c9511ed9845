# Seed 000 again, the other way the post reads DIV2K: its __main__ block with
# the two commented-out lines switched on (gen_tfrecords, then read_tfrecords).
import os

import tensorflow as tf

from data_loader import DataLoader

if __name__ == '__main__':
    os.environ['CUDA_VISIBLE_DEVICES'] = '-1'
    data_loader = DataLoader()
    data_loader.gen_tfrecords()
    lrs, gts = data_loader.read_tfrecords()
    sess = tf.Session()
    im1, im2 = sess.run([lrs, gts])
    print(im1.shape, im2.shape)
