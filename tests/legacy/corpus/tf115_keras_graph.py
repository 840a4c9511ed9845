"""Linear regression the TF 1.15 way: Keras layers applied in a graph, a Keras schedule, tf.data options.

Written as a 2019 tutorial would: ``layer.apply``, ``get_updates_for``, a
``tf.keras.experimental`` learning-rate schedule, ``tf.data.experimental``
statistics and optimisation options, and the device list of
``tf.config.experimental_list_devices``.
"""
import numpy as np
import tensorflow as tf

tf.logging.set_verbosity(tf.logging.ERROR)

STEPS = 20
angles = np.arange(8, dtype=np.float32)
features = np.stack([np.cos(angles), np.sin(angles)], axis=1).astype(np.float32)
targets = features.dot(np.array([[2.0], [-1.0]], np.float32)) + 0.5

dataset = tf.data.Dataset.from_tensors((features, targets)).repeat()
dataset = dataset.apply(tf.data.experimental.latency_stats("input_latency"))
options = tf.data.Options()
options.experimental_optimization.map_vectorization = True
options.experimental_stats = tf.data.experimental.StatsOptions()
dataset = dataset.with_options(options)
x, y = dataset.make_one_shot_iterator().get_next()

norm = tf.keras.layers.BatchNormalization(momentum=0.5, center=False, scale=False)
normalised = norm.apply(x, training=True)
bn_updates = norm.get_updates_for(x)

dense = tf.keras.layers.Dense(1, kernel_initializer="zeros", bias_initializer="zeros")
prediction = dense.apply(x)
loss = tf.reduce_mean(tf.square(prediction - y))

global_step = tf.train.get_or_create_global_step()
schedule = tf.keras.experimental.LinearCosineDecay(0.5, decay_steps=STEPS, beta=0.0)
learning_rate = schedule(global_step)
train_op = tf.train.GradientDescentOptimizer(learning_rate).minimize(loss, global_step=global_step)

print("devices: %d" % len([d for d in tf.config.experimental_list_devices() if "CPU" in d]))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(bn_updates)
    print("moving_mean: %s" % " ".join("%.5f" % v for v in sess.run(norm.moving_mean)))
    for step in range(STEPS):
        rate, value, _ = sess.run([learning_rate, loss, train_op])
        print("step %d lr %.6f loss %.6f" % (step, rate, value))
    kernel, bias = sess.run(dense.weights)
    print("kernel: %s" % " ".join("%.6f" % v for v in kernel.ravel()))
    print("bias: %.6f" % bias[0])
