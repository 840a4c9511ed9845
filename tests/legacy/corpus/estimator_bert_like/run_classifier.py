# coding=utf-8
"""A sequence classifier on a TPUEstimator, in the style of BERT's run_classifier.py (2018).

It runs with use_tpu=False on a CPU or GPU: TFRecord input files read with
parallel_interleave and map_and_batch, tf.flags, tf.gfile, a TPUEstimatorSpec
with eval_metrics, and predictions written to a TSV file.
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import os

import tensorflow as tf

flags = tf.flags
FLAGS = flags.FLAGS

flags.DEFINE_string("train_file", None, "Comma-separated glob patterns of training TFRecord files.")
flags.DEFINE_string("eval_file", None, "The evaluation TFRecord file.")
flags.DEFINE_string("output_dir", None, "Where checkpoints and results are written.")
flags.DEFINE_bool("do_train", True, "Whether to train.")
flags.DEFINE_bool("do_eval", True, "Whether to evaluate.")
flags.DEFINE_bool("do_predict", True, "Whether to predict on the eval file.")
flags.DEFINE_integer("seq_length", 8, "Tokens per example.")
flags.DEFINE_integer("vocab_size", 20, "Size of the token vocabulary.")
flags.DEFINE_integer("hidden_size", 6, "Width of the embeddings.")
flags.DEFINE_integer("num_labels", 2, "Number of classes.")
flags.DEFINE_integer("train_batch_size", 8, "Total batch size for training.")
flags.DEFINE_integer("eval_batch_size", 8, "Total batch size for eval.")
flags.DEFINE_integer("predict_batch_size", 8, "Total batch size for predict.")
flags.DEFINE_float("learning_rate", 0.05, "The initial learning rate for Adam.")
flags.DEFINE_integer("num_train_steps", 40, "Number of training steps.")
flags.DEFINE_integer("save_checkpoints_steps", 20, "How often to save the model checkpoint.")
flags.DEFINE_integer("iterations_per_loop", 10, "How many steps to make in each estimator call.")
flags.DEFINE_integer("seed", 12345, "The graph-level random seed.")
flags.DEFINE_bool("use_tpu", False, "Whether to use TPU or GPU/CPU.")
flags.DEFINE_string("master", None, "[Optional] TensorFlow master URL.")
flags.DEFINE_integer("num_tpu_cores", 8, "Only used if `use_tpu` is True.")


def file_based_input_fn_builder(input_files, seq_length, is_training, drop_remainder):
    """Creates an `input_fn` closure to be passed to TPUEstimator."""
    name_to_features = {
        "input_ids": tf.FixedLenFeature([seq_length], tf.int64),
        "label_ids": tf.FixedLenFeature([], tf.int64),
    }

    def _decode_record(record, name_to_features):
        """Decodes a record to a TensorFlow example."""
        example = tf.parse_single_example(record, name_to_features)
        # tf.Example only supports tf.int64, but the TPU only supports tf.int32.
        for name in list(example.keys()):
            t = example[name]
            if t.dtype == tf.int64:
                t = tf.to_int32(t)
            example[name] = t
        return example

    def input_fn(params):
        """The actual input function."""
        batch_size = params["batch_size"]
        d = tf.data.Dataset.from_tensor_slices(tf.constant(input_files))
        if is_training:
            d = d.repeat()
            d = d.shuffle(buffer_size=len(input_files))
        cycle_length = min(2, len(input_files))
        d = d.apply(tf.contrib.data.parallel_interleave(tf.data.TFRecordDataset, sloppy=is_training,
                                                        cycle_length=cycle_length))
        if is_training:
            d = d.shuffle(buffer_size=100)
        d = d.apply(tf.contrib.data.map_and_batch(lambda record: _decode_record(record, name_to_features),
                                                  batch_size=batch_size, drop_remainder=drop_remainder))
        return d

    return input_fn


def create_model(input_ids, labels, num_labels):
    """Mean of token embeddings, then a softmax layer named as BERT's classifier head."""
    embedding_table = tf.get_variable("embeddings/word_embeddings", [FLAGS.vocab_size, FLAGS.hidden_size],
                                      initializer=tf.truncated_normal_initializer(stddev=0.5))
    embedded = tf.nn.embedding_lookup(embedding_table, input_ids)
    pooled = tf.reduce_mean(embedded, axis=1)
    output_weights = tf.get_variable("output_weights", [num_labels, FLAGS.hidden_size],
                                     initializer=tf.truncated_normal_initializer(stddev=0.02))
    output_bias = tf.get_variable("output_bias", [num_labels], initializer=tf.zeros_initializer())
    with tf.variable_scope("loss"):
        logits = tf.matmul(pooled, output_weights, transpose_b=True)
        logits = tf.nn.bias_add(logits, output_bias)
        probabilities = tf.nn.softmax(logits, axis=-1)
        log_probs = tf.nn.log_softmax(logits, axis=-1)
        one_hot_labels = tf.one_hot(labels, depth=num_labels, dtype=tf.float32)
        per_example_loss = -tf.reduce_sum(one_hot_labels * log_probs, axis=-1)
        loss = tf.reduce_mean(per_example_loss)
    return loss, per_example_loss, logits, probabilities


def model_fn_builder(num_labels, learning_rate, use_tpu):
    """Returns `model_fn` closure for TPUEstimator."""

    def model_fn(features, labels, mode, params):
        tf.logging.info("*** Features ***")
        for name in sorted(features.keys()):
            tf.logging.info("  name = %s, shape = %s" % (name, features[name].shape))
        total_loss, per_example_loss, logits, probabilities = create_model(
            features["input_ids"], features["label_ids"], num_labels)
        if mode == tf.estimator.ModeKeys.TRAIN:
            optimizer = tf.train.AdamOptimizer(learning_rate)
            if use_tpu:
                optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)
            train_op = optimizer.minimize(total_loss, global_step=tf.train.get_or_create_global_step())
            return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=total_loss, train_op=train_op, scaffold_fn=None)
        if mode == tf.estimator.ModeKeys.EVAL:
            def metric_fn(per_example_loss, label_ids, logits):
                predictions = tf.argmax(logits, axis=-1, output_type=tf.int32)
                accuracy = tf.metrics.accuracy(labels=label_ids, predictions=predictions)
                loss = tf.metrics.mean(values=per_example_loss)
                return {"eval_accuracy": accuracy, "eval_loss": loss}
            eval_metrics = (metric_fn, [per_example_loss, features["label_ids"], logits])
            return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=total_loss, eval_metrics=eval_metrics)
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, predictions={"probabilities": probabilities})

    return model_fn


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.gfile.MakeDirs(FLAGS.output_dir)
    train_files = []
    for pattern in FLAGS.train_file.split(","):
        train_files.extend(tf.gfile.Glob(pattern))
    tf.logging.info("*** Input Files: %d ***" % len(train_files))

    tpu_cluster_resolver = None
    is_per_host = tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2
    run_config = tf.contrib.tpu.RunConfig(
        cluster=tpu_cluster_resolver, master=FLAGS.master, model_dir=FLAGS.output_dir,
        save_checkpoints_steps=FLAGS.save_checkpoints_steps, tf_random_seed=FLAGS.seed,
        tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=FLAGS.iterations_per_loop,
                                            num_shards=FLAGS.num_tpu_cores, per_host_input_for_training=is_per_host))
    model_fn = model_fn_builder(FLAGS.num_labels, FLAGS.learning_rate, FLAGS.use_tpu)
    estimator = tf.contrib.tpu.TPUEstimator(
        use_tpu=FLAGS.use_tpu, model_fn=model_fn, config=run_config, train_batch_size=FLAGS.train_batch_size,
        eval_batch_size=FLAGS.eval_batch_size, predict_batch_size=FLAGS.predict_batch_size)

    if FLAGS.do_train:
        train_input_fn = file_based_input_fn_builder(train_files, FLAGS.seq_length, True, True)
        estimator.train(input_fn=train_input_fn, max_steps=FLAGS.num_train_steps)
    if FLAGS.do_eval:
        eval_input_fn = file_based_input_fn_builder([FLAGS.eval_file], FLAGS.seq_length, False, FLAGS.use_tpu)
        result = estimator.evaluate(input_fn=eval_input_fn, steps=None)
        output_eval_file = os.path.join(FLAGS.output_dir, "eval_results.txt")
        with tf.gfile.GFile(output_eval_file, "w") as writer:
            for key in sorted(result.keys()):
                print("%s = %s" % (key, str(result[key])))
                writer.write("%s = %s\n" % (key, str(result[key])))
    if FLAGS.do_predict:
        predict_input_fn = file_based_input_fn_builder([FLAGS.eval_file], FLAGS.seq_length, False, FLAGS.use_tpu)
        output_predict_file = os.path.join(FLAGS.output_dir, "test_results.tsv")
        with tf.gfile.GFile(output_predict_file, "w") as writer:
            for prediction in estimator.predict(input_fn=predict_input_fn):
                writer.write("\t".join(str(p) for p in prediction["probabilities"]) + "\n")


if __name__ == "__main__":
    flags.mark_flag_as_required("train_file")
    flags.mark_flag_as_required("output_dir")
    tf.app.run()
