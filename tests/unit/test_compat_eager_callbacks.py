"""``tf.contrib.eager``'s execution callbacks, ``restore_variables_on_create`` and network checkpoints, and
``tf.contrib.data.reduce_dataset``, as in TF 1.15.

The callbacks on NumPy outputs are checked in-process (no TensorFlow needed);
what needs eager execution runs in one script under ``python -m compat run``
with ``tf.enable_eager_execution()``, since this process may be in graph mode.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest

from compat.contrib import eager
from tests.helpers.scripts import compat_run, write


def test_inf_nan_callback_raises_naming_the_op_and_its_counts() -> None:
    bad = np.array([1.0, np.nan, np.inf, np.nan], dtype=np.float32)
    with pytest.raises(eager.InfOrNanError) as caught:
        eager.inf_nan_callback("RealDiv", [], (), [np.zeros(2, np.float32), bad], "div_1")
    # TF 1.15's message: 1-based output index, the op's type and quoted name, inf then nan counts.
    expected = (f"Output 2 of 2 of TFE operation RealDiv (name: 'div_1') contains 1 inf(s) and 2 nan(s) "
                f"out of a total of 4 element(s). Tensor value: {bad}")
    assert str(caught.value) == expected
    assert (caught.value.op_type, caught.value.output_index, caught.value.num_outputs) == ("RealDiv", 1, 2)


def test_inf_nan_callback_passes_finite_and_integer_outputs_and_obeys_check_flags() -> None:
    finite = np.array([0.0, -3.5, 1e30])
    eager.inf_nan_callback("Mul", [], (), [finite, np.arange(3)], None)  # no error
    nan_only = np.array([np.nan, 1.0])
    eager.inf_callback("Log", [], (), [nan_only], None)  # inf_callback ignores nans
    with pytest.raises(eager.InfOrNanError, match=r"\(name: None\) contains 1 nan\(s\) out of a total of 2"):
        eager.nan_callback("Log", [], (), [nan_only], None)


def test_inf_nan_callback_actions(capsys: pytest.CaptureFixture[str]) -> None:
    inf = [np.array([np.inf])]
    eager.inf_nan_callback("Exp", [], (), inf, None, action="print")
    printed = capsys.readouterr().out
    assert printed.startswith("Warning: Output 1 of 1 of TFE operation Exp (name: None) contains 1 inf(s)")
    # TensorFlow's logger may not propagate to the root logger caplog listens on (once TF has set it up
    # in this process): listen on it directly.
    records: list[logging.LogRecord] = []

    class Listener(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    listener = Listener()
    logger = logging.getLogger("tensorflow")
    level, disabled = logger.level, logging.root.manager.disable
    logger.addHandler(listener)
    logger.setLevel(logging.WARNING)  # an earlier test of this process may have quieted TensorFlow's logger
    logging.disable(logging.NOTSET)
    try:
        eager.inf_nan_callback("Exp", [], (), inf, None, action=eager.ExecutionCallback.WARN)
    finally:
        logger.removeHandler(listener)
        logger.setLevel(level)
        logging.disable(disabled)
    assert any("contains 1 inf(s)" in record.getMessage() for record in records)
    with pytest.raises(ValueError, match="Invalid action for inf_nan_callback"):  # TF 1.15: IGNORE on a bad value
        eager.inf_nan_callback("Exp", [], (), inf, None, action="ignore")
    with pytest.raises(ValueError):
        eager.inf_nan_callback("Exp", [], (), inf, None, action="shout")
    assert [member.value for member in eager.ExecutionCallback] == ["ignore", "print", "raise", "warn"]


SCRIPT = """
import json, sys
import tensorflow as tf
tf.enable_eager_execution()
tfe = tf.contrib.eager
out = {}
calls = []
tfe.add_execution_callback(lambda *args: calls.append(args))
product = tf.multiply(tf.constant([1.0, 2.0]), 3.0)
op_type, inputs, attrs, outputs, op_name = calls[-1]
out["call"] = [op_type, [i.numpy().tolist() for i in inputs], [o.numpy().tolist() for o in outputs], op_name,
               len(calls[-1])]
seen = len(calls)
with tf.Graph().as_default():
    tf.add(tf.constant(1.0), 2.0)  # graph construction: no call
out["graph_calls"] = len(calls) - seen
tfe.clear_execution_callbacks()
tf.add(1.0, 2.0)
out["after_clear"] = len(calls) - seen
out["seterr_first"] = tfe.seterr(inf_or_nan=tfe.ExecutionCallback.RAISE)["inf_or_nan"].value
try:
    tf.math.log(tf.constant([0.0, 1.0]))
    out["raised"] = None
except Exception as error:
    out["raised"] = [type(error).__name__, str(error).split(" out of")[0]]
with tfe.errstate(inf_or_nan="ignore"):
    out["inside"] = tf.math.log(0.0).numpy().tolist()
    try:
        with tfe.errstate(inf_or_nan="warn"):
            raise KeyError("leave")
    except KeyError:
        pass
out["seterr_back"] = tfe.seterr(inf_or_nan="ignore")["inf_or_nan"].value
out["seterr_cleared"] = tfe.seterr()["inf_or_nan"].value
reducer = tf.contrib.data.Reducer(lambda key: tf.constant(0, tf.int64), lambda state, x: state + x,
                                  lambda state: state)
out["sum"] = int(tf.contrib.data.reduce_dataset(tf.data.Dataset.range(10), reducer).numpy())
variable = tf.Variable([1.0, 2.0], name="w")
prefix = tf.train.Saver(var_list={"w": variable, "scope/u": tf.Variable(5.0)}).save(None, sys.argv[1] + ".ckpt")
with tfe.restore_variables_on_create(prefix):
    first, second = tf.Variable([0.0, 0.0], name="w"), tf.Variable([9.0, 9.0], name="w")
with tfe.restore_variables_on_create(prefix, map_func=lambda name: "scope/" + name):
    mapped = tf.Variable(0.0, name="u")
try:
    with tfe.restore_variables_on_create(prefix):
        tf.Variable(0.0, name="absent")
    out["absent"] = None
except tf.errors.NotFoundError as error:
    out["absent"] = error.message.split(" checkpoint")[0]
out["restored"] = [first.numpy().tolist(), second.numpy().tolist(), float(mapped.numpy())]
import os, tf_keras
folder = os.path.dirname(sys.argv[1])
net = tf_keras.Sequential([tf_keras.layers.Dense(2, name="d1")], name="my_net")
net(tf.ones([1, 3]))
saved = tfe.save_network_checkpoint(net, folder)  # a folder: the prefix is named after the network
other = tf_keras.Sequential([tf_keras.layers.Dense(2, name="d1")], name="other")
other(tf.ones([1, 3]))
tfe.restore_network_checkpoint(other, saved)  # the network's own prefix is stripped from the names
out["network"] = [os.path.basename(saved), sorted(name for name, _ in tf.train.list_variables(saved)),
                  bool((other.layers[0].kernel.numpy() == net.layers[0].kernel.numpy()).all())]
json.dump(out, open(sys.argv[1], "w"))
"""


@pytest.mark.timeout(160)
def test_callbacks_restore_on_create_and_reduce_dataset_under_eager_execution(tmp_path: Path) -> None:
    script = write(tmp_path / "eager_callbacks.py", SCRIPT)
    done = compat_run(script, str(tmp_path / "out.json"))
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads((tmp_path / "out.json").read_text())
    assert out["call"] == ["Mul", [[1.0, 2.0], 3.0], [[3.0, 6.0]], None, 5]
    assert out["graph_calls"] == 0 and out["after_clear"] == 0
    assert out["seterr_first"] == "ignore"
    assert out["raised"] == ["InfOrNanError", "Output 1 of 1 of TFE operation Log (name: None) contains 1 inf(s)"]
    assert out["inside"] == float("-inf")
    assert out["seterr_back"] == "raise"  # errstate put RAISE back, also after a raising block
    assert out["seterr_cleared"] == "ignore"
    assert out["sum"] == sum(range(10))
    # Each checkpoint value goes to the first variable of its (mapped) name only; an unknown name is NotFoundError.
    assert out["restored"] == [[1.0, 2.0], [9.0, 9.0], 5.0]
    assert out["absent"] == "absent not found in"
    assert out["network"] == ["my_net", ["d1/bias", "d1/kernel"], True]


GRAPH_SCRIPT = """
import sys
import tensorflow as tf
calls = []
tf.contrib.eager.add_execution_callback(lambda *args: calls.append(args[0]))
tf.contrib.eager.seterr(inf_or_nan="raise")
with tf.Session() as session:
    value = session.run(tf.math.log(tf.constant(0.0)) + tf.constant(1.0))
open(sys.argv[1], "w").write(f"{len(calls)} {value}")
"""


@pytest.mark.timeout(160)
def test_callbacks_never_fire_in_graph_mode(tmp_path: Path) -> None:
    # TF 1.15 called execution callbacks for eager ops only: the runner's graph mode builds and runs graphs.
    script = write(tmp_path / "graph_callbacks.py", GRAPH_SCRIPT)
    done = compat_run(script, str(tmp_path / "out.txt"))
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "out.txt").read_text() == "0 -inf"
