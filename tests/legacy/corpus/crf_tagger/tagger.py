"""A linear-chain CRF tagger in the style of 2017 NER code (word embeddings -> projection -> tf.contrib.crf).

Usage: tagger.py --data FILE --model_dir DIR [--steps N]
FILE holds one "word TAG" pair per line, sentences separated by blank lines.
Trains with LazyAdam, saves a checkpoint, then tags every sentence twice:
with tf.contrib.crf.viterbi_decode on the fetched scores and with crf_decode in the graph.
"""
import os

import numpy as np
import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_string("data", "train.txt", "CoNLL-style file: word TAG per line")
flags.DEFINE_string("model_dir", "model", "where the checkpoint goes")
flags.DEFINE_integer("steps", 60, "training steps")
flags.DEFINE_integer("dim", 8, "embedding size")
FLAGS = flags.FLAGS


def read_sentences(path):
    sentences, current = [], []
    for line in open(path):
        line = line.strip()
        if not line:
            if current:
                sentences.append(current)
            current = []
            continue
        word, tag = line.split()
        current.append((word, tag))
    if current:
        sentences.append(current)
    return sentences


def pad(sequences, value=0):
    max_len = max(len(s) for s in sequences)
    out = np.full((len(sequences), max_len), value, dtype=np.int32)
    for i, seq in enumerate(sequences):
        out[i, :len(seq)] = seq
    return out


def main(_):
    sentences = read_sentences(FLAGS.data)
    words = sorted(set(w for s in sentences for w, _ in s))
    tags = sorted(set(t for s in sentences for _, t in s))
    word_ids = dict((w, i) for i, w in enumerate(words))
    tag_ids = dict((t, i) for i, t in enumerate(tags))
    x = pad([[word_ids[w] for w, _ in s] for s in sentences])
    y = pad([[tag_ids[t] for _, t in s] for s in sentences])
    lengths = np.array([len(s) for s in sentences], dtype=np.int32)

    tf.set_random_seed(1234)
    word_ph = tf.placeholder(tf.int32, [None, None], name="word_ids")
    tag_ph = tf.placeholder(tf.int32, [None, None], name="labels")
    len_ph = tf.placeholder(tf.int32, [None], name="sequence_lengths")
    with tf.variable_scope("words"):
        embeddings = tf.get_variable("_word_embeddings", [len(words), FLAGS.dim], dtype=tf.float32)
        embedded = tf.nn.embedding_lookup(embeddings, word_ph)
    with tf.variable_scope("proj"):
        logits = tf.layers.dense(embedded, len(tags))
    log_likelihood, trans_params = tf.contrib.crf.crf_log_likelihood(logits, tag_ph, len_ph)
    loss = tf.reduce_mean(-log_likelihood)
    train_op = tf.contrib.opt.LazyAdamOptimizer(0.05).minimize(loss)
    decode_tags, best_score = tf.contrib.crf.crf_decode(logits, trans_params, len_ph)
    saver = tf.train.Saver()

    feed = {word_ph: x, tag_ph: y, len_ph: lengths}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(loss, feed)
        for step in range(FLAGS.steps):
            _, value = sess.run([train_op, loss], feed)
        print("loss %.4f -> %.4f" % (first, value))
        if not os.path.exists(FLAGS.model_dir):
            os.makedirs(FLAGS.model_dir)
        saver.save(sess, os.path.join(FLAGS.model_dir, "model.ckpt"))
        scores, trans, graph_tags, graph_best, lls = sess.run(
            [logits, trans_params, decode_tags, best_score, log_likelihood], feed)
    for i in range(len(sentences)):
        viterbi, viterbi_score = tf.contrib.crf.viterbi_decode(scores[i, :lengths[i]], trans)
        print("sentence %d viterbi %s score %.5f" % (i, " ".join(tags[t] for t in viterbi), viterbi_score))
        print("sentence %d graph %s score %.5f" % (i, " ".join(tags[t] for t in graph_tags[i, :lengths[i]]),
                                                   graph_best[i]))
        print("sentence %d loglik %.5f" % (i, lls[i]))


if __name__ == "__main__":
    tf.app.run()
