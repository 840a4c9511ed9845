"""tf.estimator (placeholder until built)."""
