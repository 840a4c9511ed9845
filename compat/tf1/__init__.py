"""The TensorFlow 1 namespace a script's ``import tensorflow as tf`` gets, and TF1's signatures.

* :mod:`compat.tf1.namespace` - the namespace (``tf.compat.v1`` plus the overlays),
  ``tf.contrib``'s module objects, and the static classifier ``check`` uses;
* :mod:`compat.tf1.renames`, :mod:`compat.tf1.tf0_ops` - TensorFlow 0.x names (1.0's rename table);
* :mod:`compat.tf1.missing` - TF 1.15 names today's ``tf.compat.v1`` lacks;
* :mod:`compat.tf1.signatures` - TF 1.15 argument names today's functions reject;
* :mod:`compat.tf1.flags` - ``tf.flags`` / ``tf.app.flags`` with TF <= 1.4's internals;
* :mod:`compat.tf1.old_semantics` - what TF 1.0-1.14 accepted (TF 1.3's ``Dataset.map``
  arguments, float dimensions), restored by the runner.
"""
