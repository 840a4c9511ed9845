#! /usr/bin/env python
# The evaluation side: restore the saved vocabulary and encode raw sentences with it
# (words never seen in training become 0), then map ids back to words.
import os

import numpy as np
import tensorflow as tf
from tensorflow.contrib.learn.preprocessing import VocabularyProcessor

tf.flags.DEFINE_string("out_dir", "./runs", "Where train_vocab.py wrote the vocabulary.")
FLAGS = tf.flags.FLAGS


def main(_):
    vocab_path = os.path.join(FLAGS.out_dir, "vocab")
    vocab_processor = VocabularyProcessor.restore(vocab_path)
    x_raw = ["a great movie", "an unseen zebra movie"]
    x_test = np.array(list(vocab_processor.transform(x_raw)))
    for row in x_test:
        print("ids: " + " ".join(str(v) for v in row))
    print("back: " + list(vocab_processor.reverse([x_test[0]]))[0])


if __name__ == "__main__":
    tf.app.run()
