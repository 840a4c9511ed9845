"""``tf.contrib.feature_column``: sequence feature columns, which moved to ``tf.compat.v1.feature_column``."""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    **{name: f"tensorflow.compat.v1.feature_column.{name}" for name in (
        "sequence_categorical_column_with_hash_bucket", "sequence_categorical_column_with_identity",
        "sequence_categorical_column_with_vocabulary_file", "sequence_categorical_column_with_vocabulary_list",
        "sequence_numeric_column")},
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {
    "sequence_input_layer": "tf_keras.experimental.SequenceFeatures (a layer over the sequence columns)",
}

__getattr__ = forwarding_getattr("feature_column", FORWARDS, REFUSED)
