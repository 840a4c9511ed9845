#  A custom model_fn with tf.layers, trained with tf.estimator.train_and_evaluate
#  (2018 style): numpy_input_fn, a TrainSpec / EvalSpec with a LatestExporter,
#  a LoggingTensorHook, then a second Estimator warm-started from the first.
#
#  usage: python estimator_custom.py DATA.npz MODEL_DIR
import json
import sys

import numpy as np
import tensorflow as tf

tf.logging.set_verbosity(tf.logging.ERROR)


def model_fn(features, labels, mode, params):
    net = tf.layers.dense(features['x'], params['hidden'], activation=tf.nn.tanh, name='hidden')
    logits = tf.layers.dense(net, 2, name='logits')
    predicted = tf.argmax(logits, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        predictions = {'class': predicted, 'probabilities': tf.nn.softmax(logits), 'logits': logits}
        return tf.estimator.EstimatorSpec(mode, predictions=predictions, export_outputs={
            'classify': tf.estimator.export.PredictOutput(predictions)})
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    accuracy = tf.metrics.accuracy(labels=labels, predictions=predicted, name='acc_op')
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={'accuracy': accuracy})
    optimizer = tf.train.MomentumOptimizer(learning_rate=params['learning_rate'], momentum=0.9)
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    logging_hook = tf.train.LoggingTensorHook({'loss': loss}, every_n_iter=50)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, training_hooks=[logging_hook])


def serving_input_receiver_fn():
    x = tf.placeholder(tf.float32, [None, 2], name='x')
    return tf.estimator.export.ServingInputReceiver({'x': x}, {'x': x})


def main(data_path, model_dir):
    data = np.load(data_path)
    train_input = tf.estimator.inputs.numpy_input_fn({'x': data['x_train']}, data['y_train'], batch_size=20,
                                                      num_epochs=None, shuffle=True)
    eval_input = tf.estimator.inputs.numpy_input_fn({'x': data['x_eval']}, data['y_eval'], batch_size=25,
                                                     num_epochs=1, shuffle=False)
    config = tf.estimator.RunConfig(model_dir=model_dir, tf_random_seed=11, save_checkpoints_steps=40,
                                    keep_checkpoint_max=3, log_step_count_steps=20)
    classifier = tf.estimator.Estimator(model_fn=model_fn, config=config,
                                        params={'hidden': 6, 'learning_rate': 0.1})
    train_spec = tf.estimator.TrainSpec(input_fn=train_input, max_steps=120)
    exporter = tf.estimator.LatestExporter('classifier', serving_input_receiver_fn, exports_to_keep=2)
    eval_spec = tf.estimator.EvalSpec(input_fn=eval_input, steps=None, exporters=[exporter], throttle_secs=0,
                                      start_delay_secs=0)
    result = tf.estimator.train_and_evaluate(classifier, train_spec, eval_spec)
    metrics = result[0] if isinstance(result, tuple) else classifier.evaluate(eval_input)
    predictions = list(classifier.predict(eval_input))

    # Warm-start the hidden layer of a new model from the trained one; a zero
    # learning rate for one step keeps the warm-started values as they were.
    warm = tf.estimator.WarmStartSettings(ckpt_to_initialize_from=model_dir, vars_to_warm_start='hidden.*')
    second = tf.estimator.Estimator(model_fn=model_fn, model_dir=model_dir + '_warm', params={
        'hidden': 6, 'learning_rate': 0.0}, warm_start_from=warm, config=tf.estimator.RunConfig(tf_random_seed=5))
    second.train(train_input, steps=1)
    print(json.dumps({
        'metrics': {k: float(v) for k, v in metrics.items()},
        'probabilities': [p['probabilities'].tolist() for p in predictions],
        'classes': [int(p['class']) for p in predictions],
        'latest': classifier.latest_checkpoint(),
        'warm_hidden': second.get_variable_value('hidden/kernel').tolist(),
        'warm_logits': second.get_variable_value('logits/kernel').tolist(),
    }))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
