"""Train a character-level language model for a few steps, then evaluate and sample (char-rnn, 2016)."""
import argparse
import collections
import os

import numpy as np
import tensorflow as tf

from model import Model


def load(path, batch_size, seq_length):
    with open(path, "r") as f:
        data = f.read()
    counter = collections.Counter(data)
    count_pairs = sorted(counter.items(), key=lambda x: -x[1])
    chars, _ = zip(*count_pairs)
    vocab = dict(zip(chars, range(len(chars))))
    tensor = np.array(list(map(vocab.get, data)))
    num_batches = int(tensor.size / (batch_size * seq_length))
    tensor = tensor[:num_batches * batch_size * seq_length]
    xdata = tensor
    ydata = np.copy(tensor)
    ydata[:-1] = xdata[1:]
    ydata[-1] = xdata[0]
    x_batches = np.split(xdata.reshape(batch_size, -1), num_batches, 1)
    y_batches = np.split(ydata.reshape(batch_size, -1), num_batches, 1)
    return chars, vocab, x_batches, y_batches


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--data', type=str, required=True)
    parser.add_argument('--save_dir', type=str, default='save')
    parser.add_argument('--model', type=str, default='lstm')
    parser.add_argument('--rnn_size', type=int, default=16)
    parser.add_argument('--num_layers', type=int, default=2)
    parser.add_argument('--batch_size', type=int, default=4)
    parser.add_argument('--seq_length', type=int, default=8)
    parser.add_argument('--num_epochs', type=int, default=3)
    parser.add_argument('--grad_clip', type=float, default=5.)
    parser.add_argument('--learning_rate', type=float, default=0.01)
    parser.add_argument('--output_keep_prob', type=float, default=1.0)
    parser.add_argument('--input_keep_prob', type=float, default=1.0)
    args = parser.parse_args()

    chars, vocab, x_batches, y_batches = load(args.data, args.batch_size, args.seq_length)
    args.vocab_size = len(chars)
    tf.set_random_seed(0)
    model = Model(args)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        saver = tf.train.Saver(tf.global_variables())
        for e in range(args.num_epochs):
            sess.run(tf.assign(model.lr, args.learning_rate))
            state = sess.run(model.initial_state)
            for b in range(len(x_batches)):
                feed = {model.input_data: x_batches[b], model.targets: y_batches[b]}
                for i, (c, h) in enumerate(model.initial_state):
                    feed[c] = state[i].c
                    feed[h] = state[i].h
                train_loss, state, _ = sess.run([model.cost, model.final_state, model.train_op], feed)
            print("epoch {}, train_loss = {:.3f}".format(e, train_loss))
        checkpoint_path = os.path.join(args.save_dir, 'model.ckpt')
        saver.save(sess, checkpoint_path)
        # Perplexity of the first batch from a zero state, with the saved weights.
        cost = sess.run(model.cost, {model.input_data: x_batches[0], model.targets: y_batches[0]})
        print("eval perplexity: {:.6f}".format(np.exp(cost)))

    tf.reset_default_graph()
    sample_model = Model(args, training=False)
    with tf.Session() as sess:
        saver = tf.train.Saver(tf.global_variables())
        saver.restore(sess, checkpoint_path)
        print("sample: " + repr(sample_model.sample(sess, chars, vocab, 20, prime=chars[0] + chars[1])))
    with open(os.path.join(args.save_dir, 'chars.txt'), 'w') as f:
        f.write(''.join(chars))


if __name__ == '__main__':
    main()
