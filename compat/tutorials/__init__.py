"""Modules TF1 tutorials imported that TensorFlow no longer ships: the MNIST reader
(:mod:`compat.tutorials.mnist_input_data`), the tutorial model (:mod:`compat.tutorials.mnist_model`)
and their module objects (:mod:`compat.tutorials.legacy_modules`). Nothing is downloaded."""
