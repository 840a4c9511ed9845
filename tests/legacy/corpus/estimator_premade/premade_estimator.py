#  Premade estimators on a CSV file, in the style of the 2017 "Getting Started" programs:
#  feature columns, a decode_csv input_fn, a DNNClassifier driven by an Experiment
#  through learn_runner, an extra metric added with tf.contrib.estimator, and a
#  LinearClassifier on the same columns.
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import argparse
import json
import sys

import tensorflow as tf
from tensorflow.contrib.learn.python.learn import learn_runner

CSV_COLUMNS = ['a', 'b', 'c', 'color', 'label']
CSV_DEFAULTS = [[0.0], [0.0], [0.0], [''], [0]]
COLORS = ['red', 'green', 'blue']

parser = argparse.ArgumentParser()
parser.add_argument('--train_data', type=str, required=True)
parser.add_argument('--eval_data', type=str, required=True)
parser.add_argument('--model_dir', type=str, required=True)
parser.add_argument('--train_steps', type=int, default=60)
parser.add_argument('--batch_size', type=int, default=16)


def input_fn(data_file, num_epochs, shuffle, batch_size):
    """An input_fn reading the CSV file with tf.decode_csv."""
    def parse_csv(value):
        columns = tf.decode_csv(value, record_defaults=CSV_DEFAULTS)
        features = dict(zip(CSV_COLUMNS, columns))
        labels = features.pop('label')
        return features, labels

    dataset = tf.data.TextLineDataset(data_file).skip(1)
    if shuffle:
        dataset = dataset.shuffle(buffer_size=200, seed=1)
    dataset = dataset.map(parse_csv, num_parallel_calls=2)
    dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size)
    return dataset


def build_columns():
    numeric = [tf.feature_column.numeric_column(name) for name in ('a', 'b', 'c')]
    color = tf.feature_column.categorical_column_with_vocabulary_list('color', COLORS)
    return numeric, color


def metric_fn(labels, predictions):
    return {'mean_label': tf.metrics.mean(tf.to_float(labels))}


def experiment_fn(run_config, hparams):
    numeric, color = build_columns()
    classifier = tf.estimator.DNNClassifier(
        hidden_units=[hparams.hidden], feature_columns=numeric + [tf.feature_column.indicator_column(color)],
        n_classes=3, optimizer=tf.train.AdagradOptimizer(learning_rate=0.3), config=run_config)
    classifier = tf.contrib.estimator.add_metrics(classifier, metric_fn)
    return tf.contrib.learn.Experiment(
        classifier,
        train_input_fn=lambda: input_fn(FLAGS.train_data, None, True, FLAGS.batch_size),
        eval_input_fn=lambda: input_fn(FLAGS.eval_data, 1, False, FLAGS.batch_size),
        train_steps=FLAGS.train_steps, eval_steps=None)


def main(unused_argv):
    run_config = tf.contrib.learn.RunConfig(model_dir=FLAGS.model_dir + '/dnn', tf_random_seed=42,
                                            save_checkpoints_steps=1000)
    hparams = tf.contrib.training.HParams(hidden=8)
    eval_result, _ = learn_runner.run(experiment_fn, run_config=run_config, hparams=hparams,
                                      schedule='train_and_evaluate')
    dnn = experiment_fn(run_config, hparams).estimator
    predictions = list(dnn.predict(lambda: input_fn(FLAGS.eval_data, 1, False, FLAGS.batch_size)))

    numeric, color = build_columns()
    linear = tf.estimator.LinearClassifier(feature_columns=numeric + [color], n_classes=3,
                                           model_dir=FLAGS.model_dir + '/linear',
                                           config=tf.estimator.RunConfig(tf_random_seed=42))
    linear.train(input_fn=lambda: input_fn(FLAGS.train_data, None, True, FLAGS.batch_size), steps=30)
    linear_predictions = list(linear.predict(lambda: input_fn(FLAGS.eval_data, 1, False, FLAGS.batch_size)))
    print(json.dumps({
        'eval': dict((k, float(v)) for k, v in eval_result.items()),
        'dnn_logits': [p['logits'].tolist() for p in predictions],
        'dnn_probabilities': [p['probabilities'].tolist() for p in predictions],
        'dnn_class_ids': [int(p['class_ids'][0]) for p in predictions],
        'linear_logits': [p['logits'].tolist() for p in linear_predictions],
        'linear_variables': linear.get_variable_names(),
    }))


if __name__ == '__main__':
    FLAGS, unparsed = parser.parse_known_args()
    tf.logging.set_verbosity(tf.logging.ERROR)
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
