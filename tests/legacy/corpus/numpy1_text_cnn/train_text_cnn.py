"""Feeds padded sentences through an embedding lookup, as the text CNNs of 2016 did.

usage: train_text_cnn.py DATA_DIR   (DATA_DIR holds sentences.txt and vocab.npy)
"""
from __future__ import print_function

import os
import sys

import numpy as np
import tensorflow as tf

import data_helpers

data_dir = sys.argv[1]
sentences = data_helpers.load_sentences(os.path.join(data_dir, "sentences.txt"))
# The vocabulary was saved with np.save(path, dict): an object array.
vocab = np.load(os.path.join(data_dir, "vocab.npy")).item()
token_ids = [[vocab.get(word, 1) for word in sentence.split()] for sentence in sentences]

ragged = np.array(token_ids)
print("ragged", ragged.dtype, ragged.shape)
lengths = np.asarray([len(t) for t in ragged], dtype=np.float)
print("mean_length %.4f" % np.asscalar(lengths.mean()))

x_data, sequence_length = data_helpers.pad_sentences(token_ids)
print("padded", x_data.tolist())

embedding_size = 2
table = np.arange(len(vocab) * embedding_size, dtype=np.float32).reshape(len(vocab), embedding_size)
table[0] = 0.0
input_x = tf.placeholder(tf.int32, [None, sequence_length], name="input_x")
embedded = tf.nn.embedding_lookup(tf.constant(table), input_x)
pooled = tf.reduce_max(embedded, axis=1)
with tf.Session() as sess:
    for batch in data_helpers.batch_iter(x_data, 2):
        print("pooled", sess.run(pooled, {input_x: batch}).tolist())
print("nan_token", np.isnan(np.NaN), "inf", np.Inf > 1e308)
