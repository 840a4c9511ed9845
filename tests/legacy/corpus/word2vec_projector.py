# Skip-gram embeddings of a small text in the style of the 2017 word2vec tutorials:
# vocabulary by frequency (rare words -> UNK), nce_loss on a placeholder batch, a
# FileWriter, a checkpoint, metadata.tsv and the projector config for TensorBoard.
from __future__ import absolute_import, division, print_function

import collections
import os
import random
import sys

import numpy as np
import tensorflow as tf
from six.moves import xrange
from tensorflow.contrib.tensorboard.plugins import projector

text_file, log_dir = sys.argv[1], sys.argv[2]
words = open(text_file).read().split()
vocabulary_size = 8

count = [['UNK', -1]]
count.extend(collections.Counter(words).most_common(vocabulary_size - 1))
dictionary = {word: index for index, (word, _) in enumerate(count)}
data = [dictionary.get(word, 0) for word in words]
reverse_dictionary = dict(zip(dictionary.values(), dictionary.keys()))
random.seed(0)


def generate_batch(batch_size):
    centers = [random.randint(1, len(data) - 2) for _ in xrange(batch_size)]
    batch = np.array([data[c] for c in centers], dtype=np.int32)
    labels = np.array([[data[c + random.choice([-1, 1])]] for c in centers], dtype=np.int32)
    return batch, labels


graph = tf.Graph()
with graph.as_default():
    train_inputs = tf.placeholder(tf.int32, shape=[16])
    train_labels = tf.placeholder(tf.int32, shape=[16, 1])
    with tf.name_scope('embeddings'):
        embeddings = tf.Variable(tf.random_uniform([vocabulary_size, 4], -1.0, 1.0))
        embed = tf.nn.embedding_lookup(embeddings, train_inputs)
    nce_weights = tf.Variable(tf.truncated_normal([vocabulary_size, 4], stddev=0.5))
    nce_biases = tf.Variable(tf.zeros([vocabulary_size]))
    loss = tf.reduce_mean(tf.nn.nce_loss(weights=nce_weights, biases=nce_biases, labels=train_labels,
                                         inputs=embed, num_sampled=3, num_classes=vocabulary_size))
    tf.summary.scalar('loss', loss)
    optimizer = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    merged = tf.summary.merge_all()
    init = tf.global_variables_initializer()
    saver = tf.train.Saver()

with tf.Session(graph=graph) as session:
    writer = tf.summary.FileWriter(log_dir, session.graph)
    init.run()
    for step in xrange(20):
        batch_inputs, batch_labels = generate_batch(16)
        _, summary, loss_val = session.run([optimizer, merged, loss],
                                           feed_dict={train_inputs: batch_inputs, train_labels: batch_labels})
        writer.add_summary(summary, step)
    with open(log_dir + '/metadata.tsv', 'w') as f:
        for i in xrange(vocabulary_size):
            f.write(reverse_dictionary[i] + '\n')
    saver.save(session, os.path.join(log_dir, 'model.ckpt'))
    config = projector.ProjectorConfig()
    embedding_conf = config.embeddings.add()
    embedding_conf.tensor_name = embeddings.name
    embedding_conf.metadata_path = os.path.join(log_dir, 'metadata.tsv')
    projector.visualize_embeddings(writer, config)
    print("embedding variable:", embeddings.name)
writer.close()
