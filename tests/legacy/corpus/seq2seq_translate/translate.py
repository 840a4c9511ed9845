"""Train the attention seq2seq model on a toy reversal task for a few steps, then decode (translate.py, 2016)."""
import json
import os
import random
import sys

import numpy as np
import tensorflow as tf

import seq2seq_model

tf.app.flags.DEFINE_float("learning_rate", 0.5, "Learning rate.")
tf.app.flags.DEFINE_float("max_gradient_norm", 5.0, "Clip gradients to this norm.")
tf.app.flags.DEFINE_integer("batch_size", 4, "Batch size to use during training.")
tf.app.flags.DEFINE_integer("size", 8, "Size of each model layer.")
tf.app.flags.DEFINE_integer("num_layers", 2, "Number of layers in the model.")
tf.app.flags.DEFINE_integer("vocab_size", 10, "Vocabulary size.")
tf.app.flags.DEFINE_integer("steps", 12, "Training steps.")
tf.app.flags.DEFINE_string("train_dir", "train", "Training directory.")
FLAGS = tf.app.flags.FLAGS

_buckets = [(3, 5), (5, 7)]


def make_data():
    random.seed(1)
    data_set = [[] for _ in _buckets]
    for _ in xrange(40):
        n = random.randint(1, 4)
        source = [random.randint(3, FLAGS.vocab_size - 1) for _ in xrange(n)]
        target = list(reversed(source)) + [seq2seq_model.EOS_ID]
        for bucket_id, (source_size, target_size) in enumerate(_buckets):
            if len(source) < source_size and len(target) < target_size:
                data_set[bucket_id].append([source, target])
                break
    return data_set


def create_model(session, forward_only):
    model = seq2seq_model.Seq2SeqModel(
        FLAGS.vocab_size, FLAGS.vocab_size, _buckets, FLAGS.size, FLAGS.num_layers,
        FLAGS.max_gradient_norm, FLAGS.batch_size, FLAGS.learning_rate, 0.99, forward_only=forward_only)
    ckpt = tf.train.get_checkpoint_state(FLAGS.train_dir)
    if ckpt and tf.train.checkpoint_exists(ckpt.model_checkpoint_path):
        print("Reading model parameters from %s" % ckpt.model_checkpoint_path)
        model.saver.restore(session, ckpt.model_checkpoint_path)
    else:
        print("Created model with fresh parameters.")
        session.run(tf.global_variables_initializer())
    return model


def train():
    data_set = make_data()
    tf.set_random_seed(3)
    with tf.Session() as sess:
        model = create_model(sess, False)
        for current_step in xrange(FLAGS.steps):
            bucket_id = current_step % len(_buckets)
            encoder_inputs, decoder_inputs, target_weights = model.get_batch(data_set, bucket_id)
            _, step_loss, _ = model.step(sess, encoder_inputs, decoder_inputs, target_weights, bucket_id, False)
            print("global step %d bucket %d loss %.4f" % (model.global_step.eval(), bucket_id, step_loss))
        checkpoint_path = os.path.join(FLAGS.train_dir, "translate.ckpt")
        model.saver.save(sess, checkpoint_path, global_step=model.global_step)
        encoder_inputs, decoder_inputs, target_weights = model.get_batch(data_set, 1)
        _, eval_loss, _ = model.step(sess, encoder_inputs, decoder_inputs, target_weights, 1, True)
        print("eval batch: " + json.dumps({"encoder": [e.tolist() for e in encoder_inputs],
                                           "decoder": [d.tolist() for d in decoder_inputs],
                                           "weights": [w.tolist() for w in target_weights]}))
        print("eval loss %.6f" % eval_loss)


def decode():
    tf.reset_default_graph()
    with tf.Session() as sess:
        model = create_model(sess, True)
        model.batch_size = 1
        token_ids = [5, 7, 9]
        bucket_id = min([b for b in xrange(len(_buckets)) if _buckets[b][0] > len(token_ids)])
        encoder_inputs, decoder_inputs, target_weights = model.get_batch(
            {bucket_id: [(token_ids, [])]}, bucket_id)
        _, _, output_logits = model.step(sess, encoder_inputs, decoder_inputs, target_weights, bucket_id, True)
        outputs = [int(np.argmax(logit, axis=1)[0]) for logit in output_logits]
        print("decoded: " + " ".join(str(o) for o in outputs))


def main(_):
    train()
    decode()


if __name__ == "__main__":
    tf.app.run()
