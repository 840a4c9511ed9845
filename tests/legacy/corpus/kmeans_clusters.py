# K-means on a placeholder, in the style of the 2017 TensorFlow examples:
# tf.contrib.factorization.KMeans(...).training_graph(), the initializers run with the
# data fed, then a few full-batch training steps; each cluster gets the majority label.
from __future__ import print_function

import sys

import numpy as np
import tensorflow as tf
from tensorflow.contrib.factorization import KMeans

data = np.load(sys.argv[1])
points, labels, start = data["points"], data["labels"], data["start"]
num_steps = int(sys.argv[2])

X = tf.placeholder(tf.float32, shape=[None, points.shape[1]])
kmeans = KMeans(inputs=X, num_clusters=start.shape[0], initial_clusters=start,
                distance_metric='squared_euclidean', use_mini_batch=False)
(all_scores, cluster_idx, scores, cluster_centers_initialized, init_op,
 train_op) = kmeans.training_graph()
cluster_idx = cluster_idx[0]
avg_distance = tf.reduce_mean(scores)

sess = tf.Session()
sess.run(tf.global_variables_initializer(), feed_dict={X: points})
sess.run(init_op, feed_dict={X: points})
for i in range(1, num_steps + 1):
    _, d, idx = sess.run([train_op, avg_distance, cluster_idx], feed_dict={X: points})
    print("Step %i, Avg Distance: %f" % (i, d))

counts = np.zeros((start.shape[0], labels.max() + 1))
for i in range(len(idx)):
    counts[idx[i], labels[i]] += 1
print("labels_map:", " ".join(str(int(np.argmax(c))) for c in counts))
print("assignments:", " ".join(str(int(v)) for v in idx))
