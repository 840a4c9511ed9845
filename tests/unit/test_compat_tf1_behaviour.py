"""TensorFlow's behaviour changes under surviving names: GFile bytes, TF 1.x summary tags and graph names,
NCHW on a CPU, the TF1 namespace's version, and what compat check reports for each."""
from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from compat.surfaces import all_surfaces, by_name
from compat.tf1_behaviour import gfile, names, nchw
from compat.tf1_behaviour.uses import ACTIONS, find_uses

# Bytes that are not UTF-8 (a JPEG's start marker and header), as a 2016 script read them.
JPEG_HEAD = bytes([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]) + b"JFIF\x00" + bytes(range(128, 256))


@pytest.fixture()
def graph() -> Iterator[object]:
    import tensorflow as tf
    g = tf.Graph()
    with g.as_default():
        yield g


def tags(summaries: list[object]) -> list[str]:
    """The tag each serialized Summary holds."""
    import tensorflow as tf
    from tensorflow.core.framework import summary_pb2
    with tf.compat.v1.Session(graph=summaries[0].graph) as sess:  # type: ignore[attr-defined]
        return [summary_pb2.Summary.FromString(sess.run(s)).value[0].tag for s in summaries]


def tf1_tag(name: str, used: dict[str, int], family: str | None = None) -> str:
    """TF 1.15's tag, from its documented rule: the unique name scope of ``[family/]name`` (exact spelling:
    a taken name gets ``_1``, ``_2``, ...), prefixed with ``family/`` again when a family is given."""
    base = name if family is None else f"{family}/{name}"
    scope, n = base, used.get(base, 0)
    used[base] = n + 1
    while n and scope in used:
        scope, n = f"{base}_{n}", n + 1
    used.setdefault(scope, 1)
    return scope if family is None else f"{family}/{scope}"


@pytest.mark.timeout(60)
def test_summary_tags_are_tf1s_after_a_scope_of_another_case_and_undo_restores(graph: object) -> None:
    import tensorflow as tf
    v1 = tf.compat.v1

    def build() -> list[object]:
        x = tf.constant(2.0)
        with v1.name_scope("Loss"):
            cost = x * 3.0
        with v1.name_scope("Accuracy"):
            acc = x / 4.0
        return [v1.summary.scalar("loss", cost), v1.summary.scalar("loss", cost), v1.summary.scalar("accuracy", acc),
                v1.summary.histogram("weights", x, family="Layer"), v1.summary.histogram("weights", x, family="Layer"),
                v1.summary.text("Loss", tf.constant("t")), v1.summary.tensor_summary("mean", x)]

    today = tags(build())
    assert today[0] == "loss_1"  # what TensorFlow 2 writes: the case-less clash with scope "Loss"
    undo = names.install()
    try:
        with tf.Graph().as_default():
            restored = tags(build())
    finally:
        undo()
    used = {"Const": 1, "Loss": 1, "mul": 1, "Accuracy": 1}  # the names build() takes before the summaries
    expected = [tf1_tag("loss", used), tf1_tag("loss", used), tf1_tag("accuracy", used),
                tf1_tag("weights", used, "Layer"), tf1_tag("weights", used, "Layer"), tf1_tag("Loss", used),
                tf1_tag("mean", used)]
    assert restored == expected == ["loss", "loss_1", "accuracy", "Layer/Layer/weights", "Layer/Layer/weights_1",
                                    "Loss_1", "mean"]
    with tf.Graph().as_default():
        assert tags(build())[0] == "loss_1"  # undone


@pytest.mark.timeout(60)
def test_op_and_variable_names_are_unique_by_exact_spelling_also_after_import_graph_def() -> None:
    import tensorflow as tf
    v1 = tf.compat.v1
    source = tf.Graph()
    with source.as_default():
        tf.constant(1.0, name="Big")
    undo = names.install()
    try:
        with tf.Graph().as_default():
            v1.import_graph_def(source.as_graph_def(), name="")
            made = [tf.constant(1.0, name=n).op.name for n in ("Big", "big", "Big", "w", "W", "W_1")]
    finally:
        undo()
    assert made == ["Big_1", "big", "Big_2", "w", "W", "W_1"]


def test_gfile_text_read_of_binary_bytes_returns_them_and_text_stays_text(tmp_path: Path) -> None:
    import tensorflow as tf
    jpeg = tmp_path / "cat.jpg"
    jpeg.write_bytes(JPEG_HEAD)
    text = tmp_path / "labels.txt"
    text.write_text("chat\ncäfé\n", encoding="utf-8")
    GFile = tf.compat.v1.gfile.FastGFile
    with pytest.raises(UnicodeDecodeError):
        GFile(str(jpeg), "r").read()
    undo = gfile.install()
    try:
        assert GFile(str(jpeg), "r").read() == JPEG_HEAD
        assert tf.io.gfile.GFile(str(jpeg)).read() == JPEG_HEAD
        assert GFile(str(text), "r").read() == "chat\ncäfé\n"
        assert GFile(str(text), "r").readlines() == ["chat\n", "cäfé\n"]
        assert GFile(str(jpeg), "rb").read() == JPEG_HEAD
    finally:
        undo()
    with pytest.raises(UnicodeDecodeError):
        GFile(str(jpeg), "r").read()


def numpy_conv_nchw(x: np.ndarray, w: np.ndarray, stride: int) -> np.ndarray:
    """VALID cross-correlation of NCHW ``x`` with HWIO ``w`` in float64."""
    n, c, h, wd = x.shape
    kh, kw, _, out = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    y = np.zeros((n, out, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]  # n, c, kh, kw
            y[:, :, i, j] = np.einsum("nchw,hwco->no", patch, w)
    return y


@pytest.mark.timeout(60)
def test_nchw_conv_and_pool_values_and_gradients_equal_numpy_and_nhwc(graph: object) -> None:
    import tensorflow as tf
    v1 = tf.compat.v1
    rng = np.random.RandomState(0)
    xv = rng.standard_normal((2, 3, 9, 9)).astype(np.float32)
    wv = rng.standard_normal((3, 3, 3, 4)).astype(np.float32)
    undo = nchw.install(force=True)
    assert undo is not None
    try:
        x, w = tf.constant(xv), tf.constant(wv)
        conv = tf.nn.conv2d(x, w, [1, 1, 2, 2], "VALID", data_format="NCHW")
        pool = v1.nn.max_pool(x, [1, 1, 3, 3], [1, 1, 2, 2], "VALID", data_format="NCHW")
        mean = v1.nn.avg_pool(x, [1, 1, 3, 3], [1, 1, 3, 3], "VALID", data_format="NCHW")
        grads = tf.gradients(tf.reduce_sum(tf.square(conv)), [x, w])
        kinds = {op.type for op in tf.compat.v1.get_default_graph().get_operations()}
    finally:
        undo()
    xh = tf.transpose(tf.constant(xv), [0, 2, 3, 1])
    wh = tf.constant(wv)
    conv_h = tf.nn.conv2d(xh, wh, [1, 2, 2, 1], "VALID")
    grads_h = tf.gradients(tf.reduce_sum(tf.square(conv_h)), [xh, wh])
    with v1.Session() as sess:
        got, got_pool, got_mean, (gx, gw), ref_gx, ref_gw = sess.run([conv, pool, mean, grads, *grads_h])
    np.testing.assert_allclose(got, numpy_conv_nchw(xv, wv, 2), rtol=1e-4, atol=1e-4)
    windows = np.lib.stride_tricks.sliding_window_view(xv, (3, 3), axis=(2, 3))
    np.testing.assert_array_equal(got_pool, windows[:, :, ::2, ::2].max(axis=(-2, -1)))
    np.testing.assert_allclose(got_mean, windows[:, :, ::3, ::3].mean(axis=(-2, -1)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gx, ref_gx.transpose(0, 3, 1, 2), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gw, ref_gw, rtol=1e-5, atol=1e-4)
    assert "Transpose" in kinds  # computed in NHWC between transposes


@pytest.mark.timeout(60)
def test_nchw_conv2d_transpose_equals_the_nhwc_result(graph: object) -> None:
    import tensorflow as tf
    v1 = tf.compat.v1
    rng = np.random.RandomState(1)
    xv = rng.standard_normal((2, 3, 5, 5)).astype(np.float32)
    wv = rng.standard_normal((3, 3, 6, 3)).astype(np.float32)
    undo = nchw.install(force=True)
    assert undo is not None
    try:
        y = tf.nn.conv2d_transpose(tf.constant(xv), tf.constant(wv), [2, 6, 10, 10], [1, 1, 2, 2],
                                   data_format="NCHW")
    finally:
        undo()
    ref = tf.nn.conv2d_transpose(tf.constant(xv.transpose(0, 2, 3, 1)), tf.constant(wv), [2, 10, 10, 6],
                                 [1, 2, 2, 1])
    assert y.shape.as_list() == [2, 6, 10, 10]
    with v1.Session() as sess:
        got, want = sess.run([y, ref])
    np.testing.assert_allclose(got, want.transpose(0, 3, 1, 2), rtol=1e-5, atol=1e-5)


def test_tf1_namespace_reports_tf115s_version_and_the_real_module_its_own() -> None:
    import tensorflow as tf

    from compat.tf1.namespace import TF1_VERSION, tf1_namespace
    ns = tf1_namespace()
    assert ns.__version__ == ns.VERSION == ns.version.VERSION == TF1_VERSION == "1.15.5"
    assert ns.__version__.startswith("1.") and int(ns.__version__.split(".")[1]) >= 13
    assert ns.version.GRAPH_DEF_VERSION == tf.version.GRAPH_DEF_VERSION
    assert tf.__version__ == tf.compat.v1.__version__ != TF1_VERSION
    assert ns.compat.v2.__version__ == tf.__version__


SOURCE = '''
import tensorflow as tf
from tensorflow.python.platform import gfile
img = tf.gfile.FastGFile(path, 'r').read()
graph = gfile.GFile(pb).read()
raw = tf.gfile.GFile(path, 'rb').read()
config = tf.estimator.RunConfig(train_distribute=tf.contrib.distribute.OneDeviceStrategy("device:CPU:0"))
if tf.__version__.startswith('1.'):
    pass
v = tf.VERSION
y = tf.layers.conv2d(x, 8, 3, data_format='channels_first')
s = tf.summary.scalar("loss", cost)
cell = tf.nn.rnn_cell.BasicLSTMCell(4)
none = tf.estimator.RunConfig(train_distribute=None)
stack = tf.contrib.rnn.MultiRNNCell([cell] * 3)
files = tf.data.Dataset.list_files("*.tfrecord")
opt = tf.keras.optimizers.Adadelta()
ordered = tf.data.Dataset.list_files("*.tfrecord", shuffle=False)
tuned = tf.keras.optimizers.Adadelta(lr=1.0)
own = tf.contrib.rnn.MultiRNNCell([tf.nn.rnn_cell.GRUCell(4) for _ in range(3)])
'''


def test_check_reports_each_construct_with_what_the_runner_does() -> None:
    uses = list(find_uses(ast.parse(textwrap.dedent(SOURCE))))
    found = sorted((u.node.lineno, u.status, u.action) for u in uses)  # type: ignore[attr-defined]
    assert found == [
        (4, "bridged", ACTIONS["gfile"]), (5, "bridged", ACTIONS["gfile"]), (7, "bridged", ACTIONS["distribute"]),
        (8, "bridged", ACTIONS["version"]), (10, "bridged", ACTIONS["version"]), (11, "bridged", ACTIONS["nchw"]),
        (12, "bridged", ACTIONS["summary"]), (13, "warning", found[7][2]), (15, "warning", found[8][2]),
        (16, "warning", found[9][2]), (17, "warning", found[10][2]), (20, "warning", found[11][2])]
    assert "TensorFlow 1.2" in found[7][2] and "kernel" in found[7][2]
    assert "TensorFlow 1.2" in found[8][2] and "shares its variables" in found[8][2]
    assert "TensorFlow 1.7" in found[9][2] and "TensorFlow 1.14" in found[10][2]
    assert "TensorFlow 1.2" in found[11][2] and "kernel" in found[11][2]  # the GRUCell inside, not the stack
    assert list(find_uses(ast.parse("import numpy as np\nnp.__version__\n"))) == []
    assert list(find_uses(ast.parse("import tensorflow.compat.v1 as tf\ntf.__version__\n"))) == []


def test_surface_is_declared_and_its_hook_undoes_everything() -> None:
    from tensorflow.python.framework import ops
    from tensorflow.python.lib.io import file_io
    from tensorflow.python.ops import gen_nn_ops

    from compat.surfaces import Context
    surface = by_name("tf1_behaviour")
    assert surface in all_surfaces() and surface.uses is not None and surface.after_tensorflow is not None
    before = (ops.Graph.__dict__["unique_name"], file_io.FileIO.__dict__["_prepare_value"], gen_nn_ops.conv2d)
    undo = surface.after_tensorflow(Context(scope=None, helpers=None))
    assert undo is not None and ops.Graph.__dict__["unique_name"] is names.unique_name
    undo()
    assert (ops.Graph.__dict__["unique_name"], file_io.FileIO.__dict__["_prepare_value"], gen_nn_ops.conv2d) == before


@pytest.mark.timeout(60)
def test_max_pool_v2_nchw_fails_on_this_cpu_and_the_default_install_gives_numpys_values(graph: object) -> None:
    import tensorflow as tf
    from tensorflow.python.ops import gen_nn_ops
    v1 = tf.compat.v1
    xv = np.random.RandomState(2).standard_normal((2, 3, 6, 6)).astype(np.float32)
    ksize, strides = tf.constant([1, 1, 2, 2]), tf.constant([1, 1, 2, 2])  # tensors: TF's MaxPoolV2 op
    before = gen_nn_ops.max_pool_v2(tf.constant(xv), ksize, strides, "VALID", data_format="NCHW")
    with v1.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError):
        sess.run(before)  # refused even with oneDNN's CPU kernels on
    undo = nchw.install()  # the runner's call: what this CPU's kernels refuse
    assert undo is not None and "max_pool_v2" in nchw.rewritten_ops()
    try:
        pooled = gen_nn_ops.max_pool_v2(tf.constant(xv), ksize, strides, "VALID", data_format="NCHW")
    finally:
        undo()
    with v1.Session() as sess:
        got = sess.run(pooled)
    np.testing.assert_array_equal(got, xv.reshape(2, 3, 3, 2, 3, 2).max(axis=(3, 5)))


def test_contrib_distribute_keeps_tf1_arguments_and_places_replicas_on_this_machine(
        capsys: pytest.CaptureFixture[str]) -> None:
    import tensorflow as tf

    from compat.contrib import distribute
    ops = distribute.AllReduceCrossTowerOps("hierarchical_copy", num_packs=2, agg_small_grads_max_bytes=0)
    assert isinstance(ops, tf.distribute.HierarchicalCopyAllReduce)
    assert isinstance(distribute.AllReduceCrossDeviceOps(), tf.distribute.NcclAllReduce)
    with pytest.raises(ValueError, match="'ring' is not one of 'nccl', 'hierarchical_copy'"):
        distribute.AllReduceCrossDeviceOps("ring")
    on_cpu = distribute.MirroredStrategy(num_gpus=0, cross_tower_ops=ops)
    assert isinstance(on_cpu, tf.compat.v1.distribute.MirroredStrategy)
    assert [d.rpartition("/")[2] for d in on_cpu.extended.worker_devices] == ["device:CPU:0"]
    gpus = len(tf.config.list_physical_devices("GPU"))
    asked = distribute.MirroredStrategy(num_gpus=gpus + 2)
    assert len(asked.extended.worker_devices) == max(gpus, 1)
    assert f"compat: MirroredStrategy(num_gpus={gpus + 2}) on a machine with {gpus} GPU(s)" in capsys.readouterr().err
    with pytest.raises(ValueError, match="num_gpus \\(1\\) or num_gpus_per_worker \\(1\\), not both"):
        distribute.MirroredStrategy(num_gpus=1, num_gpus_per_worker=1)


def test_check_warns_on_a_graph_level_seed_alone_naming_the_rule() -> None:
    source = "import tensorflow as tf\ntf.set_random_seed(1)\nx = tf.random_normal([2], seed=3)\n"
    uses = list(find_uses(ast.parse(source)))
    assert [(u.node.lineno, u.status) for u in uses] == [(2, "warning")]  # type: ignore[attr-defined]
    assert "count of ops built before it" in uses[0].action and "op-level seeds" in uses[0].action
