"""TensorFlow's behaviour changes under names that still exist, given back to TF1-era scripts.

A legacy surface (:mod:`compat.tf1_behaviour.surface`): text-mode ``tf.gfile``
reads of binary files return bytes (:mod:`.gfile`), graph names are unique by
exact spelling so summary tags are TF 1.x's (:mod:`.names`), NCHW convolutions
run on a CPU (:mod:`.nchw`); the TF1 namespace reports TF 1.15's version
(:data:`compat.tf1.namespace.TF1_VERSION`) and the Estimator runs a
one-machine distribution strategy (:mod:`compat.estimator._gaps`).
``compat check`` reports each (:mod:`.uses`). Importing this package changes nothing.
"""
