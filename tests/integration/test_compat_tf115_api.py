"""Every name and argument name of TensorFlow 1.15's public API, as a script under ``compat run`` sees ``tf``.

The reference lists are TF 1.15's API goldens as data (``tf115_symbols.tsv``,
``tf115_class_members.tsv``; their folder is given by ``TF115_API_DIR`` or
the copy kept in ``tests/data/tf115_api``). One subprocess runs
``tests/integration/tf115_walk.py`` under the runner and writes what it found;
the tests assert on that. A second script checks the values of what
``compat.tf1.missing`` serves against independent computations.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
WALK = Path(__file__).with_name("tf115_walk.py")


def _api_dir() -> Path | None:
    candidates = [os.environ.get("TF115_API_DIR", ""), str(ROOT / "tests" / "data" / "tf115_api")]
    for candidate in candidates:
        if candidate and (Path(candidate) / "tf115_symbols.tsv").is_file():
            return Path(candidate)
    return None


API_DIR = _api_dir()
pytestmark = pytest.mark.skipif(API_DIR is None, reason="TF 1.15 API tables not found (set TF115_API_DIR)")


def _env() -> dict[str, str]:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", TF_USE_LEGACY_KERAS="1", PYTHONPATH=str(ROOT))
    return env


def _run_compat(script: Path, *args: str, timeout: int = 400) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "compat", "run", str(script), *args], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The walk's JSON: counts and problem rows for module-level symbols and class members."""
    assert API_DIR is not None
    out = tmp_path_factory.mktemp("tf115") / "walk.json"
    done = _run_compat(WALK, str(API_DIR / "tf115_symbols.tsv"), str(API_DIR / "tf115_class_members.tsv"),
                       str(out))
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(out.read_text())
    return result


def _is_estimator(name: str) -> bool:
    return name.startswith("tensorflow.estimator")


def _refusal_names_replacement(message: str) -> bool:
    """A refusal says what to use: a ``compat:`` line naming a replacement ("use ...", "build ...", ...)."""
    return "compat:" in message and any(word in message for word in ("use ", "build ", "read ", "pass ", "save "))


@pytest.mark.timeout(420)
@pytest.mark.parametrize("table", ["symbols", "members"])
def test_every_tf115_name_resolves_or_is_refused_with_replacement(walk: dict[str, Any], table: str) -> None:
    problems = [p for p in walk[table]["problems"] if not _is_estimator(p["name"])]
    missing = [p for p in problems if p["outcome"] == "missing"]
    assert missing == [], f"{len(missing)} TF 1.15 names fail with a bare error: {missing[:10]}"
    vague = [p for p in problems if p["outcome"] == "refused" and not _refusal_names_replacement(p["message"])]
    assert vague == [], vague[:10]
    counts = walk[table]["counts"]
    print(f"{table}: {counts}")
    assert counts["ok"] + counts["refused"] + counts["exempt"] + counts["missing"] > (3800 if table == "symbols"
                                                                                     else 13000)


@pytest.mark.timeout(420)
@pytest.mark.parametrize("table", ["symbols", "members"])
def test_every_tf115_argument_name_is_accepted_or_refused_with_reason(walk: dict[str, Any], table: str) -> None:
    rejected = [p for p in walk[table]["problems"] if p["outcome"] == "args" and not _is_estimator(p["name"])]
    assert rejected == [], f"{len(rejected)} TF 1.15 functions reject an argument name: {rejected[:10]}"
    counts = walk[table]["counts"]
    assert counts["args_ok"] + counts["args_refused"] == counts["with_args"] - sum(
        1 for p in walk[table]["problems"] if p["outcome"] == "args")
    assert counts["args_refused"] <= 10  # refusals are the exception, each listed in compat.tf1.signatures


@pytest.mark.timeout(420)
def test_tf_estimator_rows(walk: dict[str, Any]) -> None:
    rows = [p for table in ("symbols", "members") for p in walk[table]["problems"] if _is_estimator(p["name"])]
    bare = [p for p in rows if p["outcome"] != "refused"]
    if bare and all("estimator" in p["message"] for p in bare if p["outcome"] == "missing"):
        pytest.skip("tf.estimator: built separately")
    assert bare == [], bare[:10]


VALUES_SCRIPT = '''
import json, sys
import numpy as np
import tensorflow as tf

out = {}
sess = tf.Session()

# raw_ops.CompareAndBitpack against NumPy's packbits
x = np.array([[0.1, 0.9, 0.6, 0.2, 0.7, 0.0, 0.8, 0.95, 0.4, 0.51, 0.3, 0.3, 0.9, 0.1, 0.2, 0.6]], np.float32)
out["bitpack"] = sess.run(tf.raw_ops.CompareAndBitpack(input=x, threshold=0.5)).tolist()
out["bitpack_np"] = np.packbits(x > 0.5, axis=-1).tolist()

# keras.experimental.LinearCosineDecay against the formula
schedule = tf.keras.experimental.LinearCosineDecay(0.1, 100, num_periods=0.5, alpha=0.0, beta=0.001)
out["lcd"] = [float(sess.run(schedule(tf.constant(step)))) for step in (0, 30, 100, 150)]
out["lcd_config"] = schedule.get_config()["decay_steps"]

# renamed keywords: old and new spelling give the same value
out["rng_old"] = sess.run(tf.random.experimental.create_rng_state(7, algorithm=1)).tolist()
out["rng_new"] = sess.run(tf.compat.v1.random.experimental.create_rng_state(7, alg=1)).tolist()
layer = tf.keras.layers.Dense(3, name="d")
out["serialize"] = tf.keras.utils.serialize_keras_object(instance=layer)["config"]["units"]

# Layer.apply is the call; add_update takes inputs=; get_updates_for(None)
inputs = tf.constant([[1.0, 2.0]])
dense = tf.keras.layers.Dense(1, kernel_initializer=tf.constant_initializer([[2.0], [3.0]]), use_bias=False)
applied = dense.apply(inputs)
sess.run(tf.global_variables_initializer())
out["apply"] = sess.run(applied).tolist()
counter = tf.Variable(0.0)
sess.run(counter.initializer)
dense.add_update(tf.assign_add(counter, 1.0), inputs=inputs)
out["updates_for_none"] = len(dense.get_updates_for(None))
out["losses_for_none"] = dense.get_losses_for(None)

# tf.data options and Optional members of TF 1.15
options = tf.data.Options()
options.experimental_optimization.map_vectorization = True
options.experimental_distribute.auto_shard = False
out["map_vectorization"] = options.experimental_optimization.map_vectorization
out["auto_shard_off"] = (options.experimental_distribute.auto_shard_policy
                         == tf.data.experimental.AutoShardPolicy.OFF)
ds = tf.data.Dataset.range(4).apply(tf.data.experimental.latency_stats("lat"))
item = tf.data.make_one_shot_iterator(ds).get_next()
out["latency_identity"] = [int(sess.run(item)) for _ in range(4)]
empty = tf.data.experimental.Optional.none_from_structure(tf.TensorSpec([], tf.int64))
out["optional_has_value"] = bool(sess.run(empty.has_value()))
stats = tf.data.experimental.StatsOptions()
stats.prefix = "p"
out["stats_prefix"] = stats.prefix

# Strategy.experimental_run_v2 is run
strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
with strategy.scope():
    out["run_v2"] = float(sess.run(strategy.experimental_run_v2(lambda a: a * 2.0, args=(tf.constant(3.0),))))

# Sequential.predict_classes / predict_proba
model = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(2,), kernel_initializer="ones",
                                                   bias_initializer=tf.constant_initializer([0.0, 5.0, -5.0]))])
tf.keras.backend.get_session().run(tf.global_variables_initializer())
batch = np.array([[1.0, 1.0], [0.0, 0.0]], np.float32)
out["classes"] = model.predict_classes(batch).tolist()
out["proba_equal"] = bool(np.allclose(model.predict_proba(batch), model.predict(batch)))

# mixed precision of TF 1.15
policy = tf.keras.mixed_precision.experimental.Policy("mixed_float16")
out["cast_variables"] = policy.should_cast_variables
opt = tf.keras.mixed_precision.experimental.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1), loss_scale=128)
out["fixed_scale"] = float(tf.keras.backend.get_session().run(opt.loss_scale))

# generator enqueuer under its TF 1.15 keyword; initializer members; LooperThread.isAlive
enqueuer = tf.keras.utils.GeneratorEnqueuer(sequence=iter([1, 2]))
out["enqueuer"] = type(enqueuer).__name__
out["zeros_config"] = tf.zeros_initializer.from_config({"dtype": "float32"}).get_config()
out["looper_isalive"] = hasattr(tf.train.LooperThread, "isAlive")
out["devices"] = tf.config.experimental_list_devices()
for name in ("ctc_loss_v2", "keras.utils.multi_gpu_model"):
    try:
        target = tf
        for part in name.split("."):
            target = getattr(target, part)
        out[name] = "resolved"
    except AttributeError as exc:
        out[name] = f"{type(exc).__name__}: {exc}"
print(json.dumps(out))
'''


@pytest.mark.timeout(300)
def test_served_tf115_names_compute_what_tf115_did(tmp_path: Path) -> None:
    script = tmp_path / "tf115_values.py"
    script.write_text(VALUES_SCRIPT)
    done = _run_compat(script, timeout=280)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["bitpack"] == out["bitpack_np"] == [[0b01101011, 0b01001001]]

    def linear_cosine(step: int) -> float:  # by hand: lr * ((alpha + linear) * cosine + beta)
        t = min(step, 100)
        return 0.1 * (((100 - t) / 100) * 0.5 * (1 + math.cos(math.pi * 2 * 0.5 * t / 100)) + 0.001)
    assert out["lcd"] == pytest.approx([linear_cosine(s) for s in (0, 30, 100, 150)], rel=1e-5)
    assert out["lcd_config"] == 100
    assert out["rng_old"] == out["rng_new"]
    assert out["serialize"] == 3
    assert out["apply"] == [[8.0]]  # 1*2 + 2*3
    assert out["updates_for_none"] == 1
    assert out["losses_for_none"] == []
    assert out["map_vectorization"] is True
    assert out["auto_shard_off"] is True
    assert out["latency_identity"] == [0, 1, 2, 3]
    assert out["optional_has_value"] is False
    assert out["stats_prefix"] == "p"
    assert out["run_v2"] == 6.0
    # logits [x1+x2, x1+x2+5, x1+x2-5]: the second is largest for both rows
    assert out["classes"] == [1, 1]
    assert out["proba_equal"] is True
    assert out["cast_variables"] is True
    assert out["fixed_scale"] == 128.0
    assert out["enqueuer"] == "GeneratorEnqueuer"
    assert out["zeros_config"] == {"dtype": "float32"}
    assert out["looper_isalive"] is True
    assert any("CPU:0" in name for name in out["devices"])
    assert out["ctc_loss_v2"].startswith("LegacyAPIError: compat:") and "tf.nn.ctc_loss" in out["ctc_loss_v2"]
    assert "MirroredStrategy" in out["keras.utils.multi_gpu_model"]


def test_check_classifies_the_served_names() -> None:
    code = (
        "from compat.tf1.namespace import classify_tf_attribute as c\n"
        "import json\n"
        "names = [['keras', 'experimental', 'LinearCosineDecay'], ['raw_ops', 'CompareAndBitpack'],\n"
        "         ['ctc_loss_v2'], ['random', 'experimental', 'create_rng_state'], ['pywrap_tensorflow']]\n"
        "print(json.dumps([(v.status, v.action) for v in (c(n) for n in names)]))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    verdicts = json.loads(done.stdout.strip().splitlines()[-1])
    assert [status for status, _ in verdicts] == ["bridged", "bridged", "unsupported", "bridged", "bridged"]
    assert "tf.nn.ctc_loss" in verdicts[2][1]
    assert "algorithm= -> alg" in verdicts[3][1]
