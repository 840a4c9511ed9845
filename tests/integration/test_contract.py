"""Every pipeline x backend delivers what its FIELDS declare (dtype, shape, layout, range),
on the embedded default data; and importing the packages changes no global state."""
from __future__ import annotations

import subprocess
import sys
import threading
from typing import Any

import numpy as np
import pytest

import tf1_pipelines as tp
from tf1_pipelines.fields import FieldSpec, check_field

CASES: list[tuple[str, dict[str, Any]]] = [
    ("div2k_sr", {"backend": "tfrecords", "lr_method": "native"}),
    ("div2k_sr", {"backend": "tfrecords", "lr_method": "py_func"}),
    ("div2k_sr", {"backend": "generator", "lr_method": "native", "one_img_patch_num": 4,
                  "shuffle_num": 8}),
    ("div2k_sr", {"backend": "generator", "lr_method": "py_func", "one_img_patch_num": 4,
                  "shuffle_num": 8}),
    ("voc_segmentation", {"backend": "queue"}),
    ("voc_segmentation", {"backend": "dataset"}),
    ("inception_multilabel", {"backend": "queue", "examples_per_shard": 16,
                              "input_queue_memory_factor": 1, "num_preprocess_threads": 4,
                              "height": 96, "width": 96}),
    ("inception_multilabel", {"backend": "dataset", "examples_per_shard": 16,
                              "input_queue_memory_factor": 1, "num_preprocess_threads": 4,
                              "height": 96, "width": 96}),
    ("stylegan_lod", {"lod": 0, "shuffle_mb": 1, "prefetch_mb": 1}),
    ("random_patches", {}),
    ("feeding", {}),
    ("constant", {}),
]


def test_every_registered_pipeline_is_covered() -> None:
    assert sorted({name for name, _ in CASES}) == tp.available()


@pytest.mark.timeout(180)
@pytest.mark.parametrize("name, options", CASES,
                         ids=[f"{n}-{o.get('backend', o.get('lr_method', 'default'))}"
                              f"{'-' + o['lr_method'] if 'backend' in o and 'lr_method' in o else ''}"
                              for n, o in CASES])
def test_batches_match_the_declared_fields(name: str, options: dict[str, Any]) -> None:
    before = threading.active_count()
    with tp.load_pipeline(name, batch_size=4, stall_timeout=60, **options) as p:
        assert p.FIELDS, f"{name} declares no FIELDS"
        for _ in range(2):
            batch = p.get_batch()
            assert list(batch._fields) == list(p.FIELDS)
            p.check_batch(batch)
            assert len(batch[0]) == 4
    assert threading.active_count() == before


def test_check_field_rejects_what_breaks_the_declaration() -> None:
    spec = FieldSpec("float32", (None, 4, 4, 1), "NHWC", (0.0, 1.0))
    good = np.full((2, 4, 4, 1), 0.5, np.float32)
    check_field("x", good, spec)
    with pytest.raises(ValueError, match="dtype"):
        check_field("x", good.astype(np.float64), spec)
    with pytest.raises(ValueError, match="shape"):
        check_field("x", good[:, :3], spec)
    with pytest.raises(ValueError, match="spans"):
        check_field("x", good * 3, spec)


def test_importing_the_packages_changes_no_global_state() -> None:
    code = (
        "import builtins, logging, sys\n"
        "import tensorflow as tf\n"
        "level = tf.get_logger().level\n"
        "import tf1_pipelines, compat, compat.scipy_legacy.misc, compat.numpy1.bytes_helpers\n"
        "import tf1_pipelines.pipelines.div2k_sr, tf1_pipelines.pipelines.stylegan_lod\n"
        "assert tf.executing_eagerly(), 'eager execution was switched off'\n"
        "assert tf.get_logger().level == level, 'TF logging level changed'\n"
        "assert 'scipy.misc' not in sys.modules, 'scipy.misc was installed'\n"
        "assert not hasattr(builtins, 'xrange'), 'xrange was added to builtins'\n"
        "assert not hasattr(tf, 'contrib'), 'tf.contrib was added'\n"
        "print('clean')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "clean"
