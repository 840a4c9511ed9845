"""``from tensorflow.python.data import Dataset`` in the script's own code is TF1's ``DatasetV1``.

Google's ML Crash Course notebooks imported ``Dataset`` from that internal path and called
``make_one_shot_iterator()``; TF 1.x's module held ``DatasetV1`` there, today's holds
``DatasetV2``. The rewrite resolves such names in the TF1 namespace (here a stand-in
``tf.compat.v1`` itself, so nothing process-wide is changed).
"""
from __future__ import annotations

import textwrap
from typing import Any

import tensorflow as tf

from compat.numpy1 import bytes_helpers
from compat.rules import DEEP_TF1_IMPORTS
from compat.runner import rewrite


def run_legacy(source: str) -> dict[str, Any]:
    """Compile ``source`` as a module of the script and run it with ``tf.compat.v1`` as the TF1 namespace."""
    code, result = rewrite.compile_legacy(textwrap.dedent(source), "legacy_module.py", python2=False)
    helpers = rewrite.LegacyHelpers(lambda: tf.compat.v1, bytes_helpers)  # type: ignore[arg-type,return-value]
    namespace: dict[str, Any] = {"__name__": "legacy_module"}
    namespace.update(rewrite.injected_globals(result, helpers))
    exec(code, namespace)
    return namespace


def test_dataset_from_the_internal_path_has_the_tf1_iterators() -> None:
    ns = run_legacy("""
        import tensorflow as tf
        from tensorflow.python.data import Dataset
        from tensorflow.python.data.ops.readers import TFRecordDataset, ParallelInterleaveDataset as PID
        with tf.Graph().as_default():
            ds = Dataset.from_tensor_slices(({"rooms": [3.0, 5.0, 7.0]}, [1.0, 2.0, 3.0])).batch(2)
            features, labels = ds.make_one_shot_iterator().get_next()
            with tf.Session() as sess:
                batches = [sess.run([features, labels]) for _ in range(2)]
    """)
    assert ns["Dataset"] is tf.compat.v1.data.Dataset
    assert ns["TFRecordDataset"] is tf.compat.v1.data.TFRecordDataset
    assert ns["PID"] is not None  # the other names of the statement are imported as written
    rooms = [b[0]["rooms"].tolist() for b in ns["batches"]]
    labels = [b[1].tolist() for b in ns["batches"]]
    assert rooms == [[3.0, 5.0], [7.0]] and labels == [[1.0, 2.0], [3.0]]


def test_every_row_names_a_tf1_class_that_today_s_module_lacks_as_such() -> None:
    import importlib
    for (module, name), path in DEEP_TF1_IMPORTS.items():
        served = tf.compat.v1
        for part in path.split("."):
            served = getattr(served, part)
        today = getattr(importlib.import_module(module), name)
        assert served is not today and hasattr(served, "make_one_shot_iterator"), (module, name)
