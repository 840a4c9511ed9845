#! /usr/bin/env python
# A sentence classifier's data preparation and training loop in the 2017 style:
# tf.flags, tf.contrib.learn's VocabularyProcessor to turn sentences into id rows,
# a shuffled train/dev split, a tiny embedding + mean-pool model and a saved vocabulary
# that a second step restores to encode new sentences.
import os

import numpy as np
import tensorflow as tf
from tensorflow.contrib import learn

tf.flags.DEFINE_string("data_file", "./sentences.txt", "One 'label<TAB>sentence' per line.")
tf.flags.DEFINE_string("out_dir", "./runs", "Where the vocabulary and the checkpoint go.")
tf.flags.DEFINE_integer("embedding_dim", 4, "Embedding size")
tf.flags.DEFINE_integer("num_steps", 5, "Training steps")
tf.flags.DEFINE_integer("min_frequency", 0, "Drop words seen this often or less")
FLAGS = tf.flags.FLAGS


def load(path):
    labels, sentences = [], []
    for line in open(path):
        label, sentence = line.rstrip("\n").split("\t")
        labels.append(int(label))
        sentences.append(sentence.strip().lower())
    return sentences, np.eye(2)[labels]


def main(_):
    x_text, y = load(FLAGS.data_file)
    max_document_length = max([len(x.split(" ")) for x in x_text])
    vocab_processor = learn.preprocessing.VocabularyProcessor(max_document_length,
                                                              min_frequency=FLAGS.min_frequency)
    x = np.array(list(vocab_processor.fit_transform(x_text)))
    print("Vocabulary Size: {:d}".format(len(vocab_processor.vocabulary_)))
    print("first ids: " + " ".join(str(v) for v in x[0]))

    with tf.Graph().as_default():
        input_x = tf.placeholder(tf.int32, [None, max_document_length], name="input_x")
        input_y = tf.placeholder(tf.float32, [None, 2], name="input_y")
        W = tf.Variable(tf.random_uniform([len(vocab_processor.vocabulary_), FLAGS.embedding_dim], -1.0, 1.0))
        pooled = tf.reduce_mean(tf.nn.embedding_lookup(W, input_x), 1)
        scores = tf.layers.dense(pooled, 2)
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=scores, labels=input_y))
        train_op = tf.train.AdamOptimizer(1e-2).minimize(loss)
        saver = tf.train.Saver(tf.global_variables())
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(FLAGS.num_steps):
                _, loss_value = sess.run([train_op, loss], {input_x: x, input_y: y})
            print("final loss {:g}".format(loss_value))
            if not os.path.exists(FLAGS.out_dir):
                os.makedirs(FLAGS.out_dir)
            saver.save(sess, os.path.join(FLAGS.out_dir, "model"))
    vocab_processor.save(os.path.join(FLAGS.out_dir, "vocab"))


if __name__ == "__main__":
    tf.app.run()
