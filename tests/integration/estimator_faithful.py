"""An Estimator run, written as a TF 1.x script, for ``test_compat_estimator.py`` (run under the compat runner).

It trains a two-layer regression ``model_fn`` with ``Estimator.train`` for 5
steps, then the same graph by hand in a ``MonitoredTrainingSession`` with the
same seed, evaluates, predicts, resumes for 3 more steps, exports a SavedModel
and serves it, and prints one JSON object with everything it saw. The test
recomputes the values with NumPy from the checkpoints.

usage: python -m compat run estimator_faithful.py MODEL_DIR EXPORT_DIR
"""
import json
import sys

import numpy as np
import tensorflow as tf

SEED = 7
LEARNING_RATE = 0.05
BATCH = 8


def data():
    rng = np.random.RandomState(0)
    x = rng.uniform(-1.0, 1.0, size=(32, 3)).astype(np.float32)
    y = (x @ np.array([[1.5], [-2.0], [0.5]], np.float32) + 0.3).astype(np.float32)
    return x, y


def input_fn():
    x, y = data()
    dataset = tf.data.Dataset.from_tensor_slices(({"x": x}, y))
    return dataset.batch(BATCH).repeat()


def eval_input_fn():
    x, y = data()
    return tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(BATCH)


def model_fn(features, labels, mode, params):
    init = tf.glorot_uniform_initializer(seed=3)
    hidden = tf.layers.dense(features["x"], params["hidden"], activation=tf.nn.relu, kernel_initializer=init,
                             name="hidden")
    output = tf.layers.dense(hidden, 1, kernel_initializer=tf.glorot_uniform_initializer(seed=4), name="output")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": output},
                                          export_outputs={"serve": tf.estimator.export.PredictOutput(
                                              {"y": output})})
    loss = tf.losses.mean_squared_error(labels, output)
    train_op = tf.train.GradientDescentOptimizer(LEARNING_RATE).minimize(
        loss, global_step=tf.train.get_global_step())
    metrics = {"mae": tf.metrics.mean_absolute_error(labels, output)}
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, eval_metric_ops=metrics)


def by_hand(steps):
    """The same graph trained in a MonitoredTrainingSession: the weights after ``steps`` steps."""
    with tf.Graph().as_default():
        tf.set_random_seed(SEED)
        tf.train.get_or_create_global_step()
        features, labels = input_fn().make_one_shot_iterator().get_next()
        spec = model_fn(features, labels, tf.estimator.ModeKeys.TRAIN, {"hidden": 4})
        names = [v.op.name for v in tf.trainable_variables()]
        final = tf.train.FinalOpsHook(tf.trainable_variables())
        with tf.train.MonitoredTrainingSession(hooks=[tf.train.StopAtStepHook(last_step=steps), final]) as sess:
            while not sess.should_stop():
                sess.run(spec.train_op)
        values = final.final_ops_values
    return {name: value.tolist() for name, value in zip(names, values)}


def main(model_dir, export_dir):
    config = tf.estimator.RunConfig(model_dir=model_dir, tf_random_seed=SEED, save_checkpoints_steps=100,
                                    keep_checkpoint_max=10, log_step_count_steps=1)
    estimator = tf.estimator.Estimator(model_fn, config=config, params={"hidden": 4})
    estimator.train(input_fn, steps=5)
    names = [n for n in estimator.get_variable_names() if n.startswith(("hidden", "output")) and "/" in n]
    trained = {n: estimator.get_variable_value(n).tolist() for n in names}
    after_train = estimator.latest_checkpoint()
    metrics = estimator.evaluate(eval_input_fn)
    predictions = [p["y"].tolist() for p in estimator.predict(eval_input_fn)]
    estimator.train(input_fn, steps=3)  # resumes at step 5
    resumed = estimator.latest_checkpoint()
    receiver = tf.estimator.export.build_raw_serving_input_receiver_fn(
        {"x": tf.placeholder(tf.float32, [None, 3], name="x")})
    exported = estimator.export_savedmodel(export_dir, receiver)
    if isinstance(exported, bytes):
        exported = exported.decode()
    x, _ = data()
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], exported)
        signature = meta.signature_def["serve"]
        served = sess.run(signature.outputs["y"].name, {signature.inputs["x"].name: x[:5]})
    print(json.dumps({
        "estimator": trained, "by_hand": by_hand(5), "after_train": after_train, "resumed": resumed,
        "metrics": {k: float(v) for k, v in metrics.items()}, "predictions": predictions,
        "exported": exported, "served": served.tolist(),
        "final": {n: estimator.get_variable_value(n).tolist() for n in names},
    }))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
