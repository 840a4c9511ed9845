# %% [markdown]
# # The DIV2K questions of seed 000, answered by experiment
#
# Seed 000 is a DIV2K 4x super-resolution loader (LR 24×24, HR 96×96, luma only). Its slides ask:
#
# 1. Why write **10** TFRecord files?
# 2. Why `tf.py_func`, and what are its pros and cons?
# 3. Why `shuffle` and `prefetch`, and how big should the shuffle buffer be?
# 4. Can the `map` / `shuffle` / `batch` / `repeat` calls be reordered?
# 5. TFRecords or a generator: what does each do well, and where does each fit?
#
# Each section measures on the embedded photographs (real photographs bundled with scikit-image,
# written out as a DIV2K-like folder), plots, and prints the answer computed from the measurements.
# Timings are whatever the machine that ran the notebook gave: compare ratios, not absolute rates.
# With `TF1P_NOTEBOOK_SMALL=1` every timed window is shorter (the test suite runs it that way).

# %%
import collections
import glob
import os
import shutil
import tempfile
import textwrap
import time
from typing import NamedTuple

import matplotlib.pyplot as plt
import numpy as np
import tensorflow as tf
from IPython.display import Markdown, display

import tf1_pipelines as tp
from tf1_pipelines.data import sample_data
from tf1_pipelines.image.patches import grid_patches, list_images, luma_uint8, read_rgb
from tf1_pipelines.image.resize import resize_bicubic_matmul
from tf1_pipelines.pipelines.div2k_sr import lr_by_py_func, parse_patch, parse_patch_batch, write_patch_records
from tf1_pipelines.records.features import bytes_feature, example, int64_feature
from tf1_pipelines.records.serialize import serialize
from tf1_pipelines.records.writer import AtomicRecordWriters

tf.get_logger().setLevel("ERROR")
tf1 = tf.compat.v1

SMALL = os.environ.get("TF1P_NOTEBOOK_SMALL") == "1"
SECONDS = 0.3 if SMALL else 1.5  # length of every timed window (the whole run stays under 2 minutes)
P, SCALE, BATCH = 96, 4, 64      # the seed's patch size, scale and batch size
print(f"TensorFlow {tf.__version__}, {'small' if SMALL else 'full'} run, "
      f"{SECONDS} s per timed window, {os.cpu_count()} CPU cores")

# %% [markdown]
# ## The data
#
# Eight photographs (shown as the luma Y the seed keeps), cut into 96×96 patches on the seed's
# grid (stride 64). Besides the seed's own records, we write two *indexed* record sets: every
# record also holds `id` (its index in write order, which is image order) and `image` (its source
# photograph), so every order shown below is read back from the data itself. One set is a single
# file; the other is 10 files filled round-robin, exactly as the seed's `gen_tfrecords` does.

# %%
DATA_DIR = sample_data.div2k_like_dir()
PNGS = list_images(DATA_DIR)
NAMES = list(sample_data.DIV2K_LIKE[:len(PNGS)])
WORK = tempfile.mkdtemp(prefix="div2k_questions_")

photos = [read_rgb(path, min_size=P) for path in PNGS]
patches, sources = [], []
for image_index, photo in enumerate(photos):
    for gt in grid_patches(luma_uint8(photo), P):
        patches.append(gt.copy())
        sources.append(image_index)
sources = np.array(sources)
N = len(patches)
PER_IMAGE = np.bincount(sources, minlength=len(PNGS))


def write_indexed_records(save_dir, num_shards):
    """The seed's records (`gt`: raw uint8 patch bytes, round-robin over data{i}.tfrecords)
    plus `id` (write index) and `image` (source photograph index)."""
    os.makedirs(save_dir)
    paths = [os.path.join(save_dir, f"data{i}.tfrecords") for i in range(num_shards)]
    with AtomicRecordWriters(paths) as writers:
        for index, (gt, source) in enumerate(zip(patches, sources)):
            record = example({"gt": bytes_feature(gt.tobytes()), "id": int64_feature(index),
                              "image": int64_feature(int(source))})
            writers.write(index % num_shards, serialize(record))
    return paths


ONE_SHARD = write_indexed_records(os.path.join(WORK, "one_shard"), 1)
TEN_SHARDS = write_indexed_records(os.path.join(WORK, "ten_shards"), 10)
SEED_RECORD_BYTES = len(serialize(example({"gt": bytes_feature(patches[0].tobytes())})))

fig, axes = plt.subplots(1, len(photos), figsize=(1.6 * len(photos), 2.0))
for ax, photo, name, count in zip(axes, photos, NAMES, PER_IMAGE):
    ax.imshow(luma_uint8(photo[::4, ::4]), cmap="gray", vmin=0, vmax=255)  # what the seed uses
    ax.set_title(f"{name}\n{photo.shape[0]}×{photo.shape[1]}, {count} patches", fontsize=8)
    ax.axis("off")
plt.tight_layout()
plt.show()
print(f"{N} patches from {len(PNGS)} photographs; "
      f"10 shards of {min(len(range(i, N, 10)) for i in range(10))}-"
      f"{max(len(range(i, N, 10)) for i in range(10))} records; "
      f"one seed record is {SEED_RECORD_BYTES} bytes")

# %% [markdown]
# Two helpers run every experiment in a **fresh graph and session** (closed afterwards):
# `timed` measures the first-batch latency, then examples per second and CPU cores busy
# (process CPU time / wall time) over one window; `run_to_end` collects every element of a
# finite dataset.

# %%
class Rate(NamedTuple):
    per_s: float    # examples per second
    first_s: float  # latency of the first batch
    cores: float    # process CPU seconds per wall second while timing


def rate_of(step, seconds=SECONDS, warmup=1 if SMALL else 3):
    """Time `step()` (which returns one batch): the first call, then a window of `seconds`."""
    start = time.perf_counter()
    step()
    first = time.perf_counter() - start
    for _ in range(warmup):
        step()
    examples, cpu, start = 0, time.process_time(), time.perf_counter()
    while time.perf_counter() - start < seconds:
        examples += len(tf.nest.flatten(step())[0])
    wall = time.perf_counter() - start
    return Rate(examples / wall, first, (time.process_time() - cpu) / wall)


def timed(make_dataset, **kwargs):
    """`rate_of` a dataset of batches, built by `make_dataset()` in a fresh graph."""
    graph = tf.Graph()
    with graph.as_default():
        next_batch = tf1.data.make_one_shot_iterator(make_dataset()).get_next()
    with tf1.Session(graph=graph) as sess:
        return rate_of(lambda: sess.run(next_batch), **kwargs)


def run_to_end(make_dataset):
    """Every element of the finite dataset `make_dataset()`, in order."""
    graph = tf.Graph()
    with graph.as_default():
        next_element = tf1.data.make_one_shot_iterator(make_dataset()).get_next()
    elements = []
    with tf1.Session(graph=graph) as sess:
        while True:
            try:
                elements.append(sess.run(next_element))
            except tf.errors.OutOfRangeError:
                return elements


ID_FEATURES = {"id": tf1.FixedLenFeature([], tf.int64),
               "image": tf1.FixedLenFeature([], tf.int64)}


def ids_of(serialized):
    """Serialized indexed records [B] -> (id [B], image [B])."""
    features = tf1.parse_example(serialized, ID_FEATURES)
    return features["id"], features["image"]


def records(files, parallel_reads=None):
    """The records of `files`: read one file after another, or interleaved from
    `parallel_reads` files at a time, one record from each in turn."""
    return tf1.data.TFRecordDataset(files, num_parallel_reads=parallel_reads)


def read_order(files, parallel_reads=None):
    """The record ids of `files` in reading order, without a shuffle."""
    return np.concatenate([ids for ids, _ in run_to_end(
        lambda: records(files, parallel_reads).batch(N).map(ids_of))])


def with_threads(dataset, threads):
    """`dataset` run with a tf.data thread pool of `threads` threads. By default the pool
    has one thread per core, and every dataset function call (a `py_func` included) runs
    on it, so no more than that many calls run at once, whatever `num_parallel_calls`."""
    options = tf.data.Options()
    options.threading.private_threadpool_size = threads
    return dataset.with_options(options)


def ratio(a, b):
    return a / b if b else float("nan")


# %% [markdown]
# ## 1. Why 10 shards?
#
# Two reasons to test. **Parallel reads**: one file is one stream; with several files,
# `interleave` (what `TFRecordDataset(files, num_parallel_reads=k)` does) reads `k` of them at
# once, which matters when every read waits on storage. A local disk with the files in the page
# cache hardly waits, so we also simulate a network file system: each block of 16 records waits
# 10 ms before it arrives (a sleep in a `py_func`, which like an I/O wait releases the GIL; real
# reads wait in the interleave's own threads, so the simulation gets a tf.data pool of 16 threads
# instead of one per core).
# **Shuffle quality**: the seed writes patches in image order, round-robin over the shards, and
# reads the shards one after another; what does a shuffle buffer smaller than a shard then see?

# %%
LATENCY_S, BLOCK, IO_THREADS = 0.010, 16, 16


def shard_reader(latency_s):
    """Per-file reader; with latency_s > 0 each block of BLOCK records first waits latency_s."""
    def read(filename):
        dataset = tf.data.TFRecordDataset(filename)
        if not latency_s:
            return dataset

        def wait(block):
            time.sleep(latency_s)
            return block
        return dataset.batch(BLOCK).map(
            lambda block: tf.ensure_shape(tf1.py_func(wait, [block], tf.string), [None])).unbatch()
    return read


def read_rate(files, parallel_reads, latency_s):
    def make():
        names = tf1.data.Dataset.from_tensor_slices(files)
        recs = names.interleave(shard_reader(latency_s), cycle_length=parallel_reads,
                                block_length=1,
                                num_parallel_calls=parallel_reads if parallel_reads > 1 else None)
        batches = recs.repeat().batch(BATCH).map(lambda x: parse_patch_batch(x, P)).prefetch(2)
        return with_threads(batches, IO_THREADS)
    return timed(make)


READ_CASES = {"1 shard": (ONE_SHARD, 1),
              "1 shard, 10 parallel reads": (ONE_SHARD, 10),
              "10 shards, one after another (seed)": (TEN_SHARDS, 1),
              "10 shards, 10 parallel reads": (TEN_SHARDS, 10)}
STORAGE = {"local disk": 0.0, f"+{LATENCY_S * 1e3:.0f} ms per {BLOCK} records": LATENCY_S}
read_rates = {(storage, case): read_rate(files, reads, latency).per_s
              for storage, latency in STORAGE.items()
              for case, (files, reads) in READ_CASES.items()}

fig, axes = plt.subplots(1, len(STORAGE), figsize=(12, 3.6))
for ax, storage in zip(axes, STORAGE):
    values = [read_rates[storage, case] for case in READ_CASES]
    bars = ax.bar(range(len(READ_CASES)), values, color=[f"C{k}" for k in range(len(READ_CASES))])
    ax.bar_label(bars, fmt="%.0f", fontsize=8)
    ax.set_xticks(range(len(READ_CASES)), [textwrap.fill(c, 16) for c in READ_CASES],
                  fontsize=8)
    ax.set_title(storage, fontsize=10)
    ax.set_ylabel("patches / s (read + parse + batch)")
fig.suptitle("Reading 1 vs 10 shards")
plt.tight_layout()
plt.show()

# %% [markdown]
# Now the shuffle. A buffer of 32 records (smaller than a shard) and batches of 32; each row of a
# picture is one batch of the first epoch, each colour the source photograph of a record.

# %%
SMALL_BUFFER = 32
SHUFFLE_CASES = {"1 shard": (ONE_SHARD, None),
                 "10 shards, one after another (seed)": (TEN_SHARDS, None),
                 "10 shards, 10 parallel reads": (TEN_SHARDS, 10),
                 "reference, buffer holds all records": (ONE_SHARD, None)}


def epoch_batches(files, parallel_reads, buffer, batch=SMALL_BUFFER, seed=1):
    """[(ids, images)] of one shuffled epoch."""
    return run_to_end(lambda: records(files, parallel_reads).shuffle(buffer, seed=seed)
                      .batch(batch).map(ids_of))


def batch_mixing(batches, batch):
    """Mean distinct photographs per full batch, and mean share of its most common one."""
    full = [images for _, images in batches if len(images) == batch]
    distinct = np.mean([len(np.unique(images)) for images in full])
    majority = np.mean([np.bincount(images).max() / batch for images in full])
    return distinct, majority


mixing = {}
cmap = plt.get_cmap("tab10", len(PNGS))
fig, axes = plt.subplots(1, len(SHUFFLE_CASES), figsize=(13, 4.2), sharey=True)
for ax, (case, (files, reads)) in zip(axes, SHUFFLE_CASES.items()):
    buffer = N if case.startswith("reference") else SMALL_BUFFER
    batches = epoch_batches(files, reads, buffer)
    mixing[case] = batch_mixing(batches, SMALL_BUFFER)
    grid = np.full((len(batches), SMALL_BUFFER), np.nan)
    for row, (_, images) in enumerate(batches):
        grid[row, :len(images)] = images
    shown = ax.imshow(grid, cmap=cmap, vmin=-0.5, vmax=len(PNGS) - 0.5, aspect="auto",
                      interpolation="nearest")
    title = case.replace(", ", ",\n")
    ax.set_title(f"{title}\n{mixing[case][0]:.1f} photos per batch", fontsize=9)
    ax.set_xlabel("position in batch")
axes[0].set_ylabel("batch")
colorbar = fig.colorbar(shown, ax=axes, ticks=range(len(PNGS)))
colorbar.ax.set_yticklabels(NAMES, fontsize=8)
fig.suptitle(f"Source photograph of every record, shuffle buffer {SMALL_BUFFER}", y=1.1)
plt.show()
interleaved = read_order(TEN_SHARDS, 10)
print(f"10 shards read with 10 parallel reads, unshuffled: ids {interleaved[:12].tolist()} ...; "
      f"equal to the write order: {np.array_equal(interleaved, np.arange(N))}")
in_turn = read_order(TEN_SHARDS)
print(f"10 shards read one after another, unshuffled: ids {in_turn[:12].tolist()} ...")

# %%
local, slow = list(STORAGE)
seq, par = "10 shards, one after another (seed)", "10 shards, 10 parallel reads"
display(Markdown(
    f"**Answer.** With storage that waits {LATENCY_S * 1e3:.0f} ms per {BLOCK} records, 10 "
    f"parallel reads over 10 shards deliver {read_rates[slow, par]:,.0f} patches/s against "
    f"{read_rates[slow, '1 shard']:,.0f} from one file "
    f"(×{ratio(read_rates[slow, par], read_rates[slow, '1 shard']):.1f}); one file with 10 "
    f"parallel reads is still one stream ({read_rates[slow, '1 shard, 10 parallel reads']:,.0f}/s)."
    f" On the local "
    f"disk the ratio is ×{ratio(read_rates[local, par], read_rates[local, '1 shard']):.2f}: "
    f"shards matter when reads wait, not when the files sit in memory.\n\n"
    f"For shuffling, shards read one after another (as the seed reads them) spread a buffer of "
    f"{SMALL_BUFFER} over {mixing[seq][0]:.1f} photographs per batch (largest share "
    f"{mixing[seq][1]:.0%}), against {mixing['1 shard'][0]:.1f} (share {mixing['1 shard'][1]:.0%}) "
    f"from one file: each shard holds every 10th patch, so the buffer spans 10× more of the data. "
    f"Interleaving round-robin shards record by record rebuilds the write order (measured: "
    f"{'identical' if np.array_equal(interleaved, np.arange(N)) else 'not identical'}; "
    f"{mixing[par][0]:.1f} photographs per batch, like one file): mixing then needs a shuffled "
    f"file order, shuffled writing, or a larger buffer. A full-epoch buffer gives "
    f"{mixing['reference, buffer holds all records'][0]:.1f}. Shards also split evenly over up to "
    f"10 reader processes or machines (`Dataset.shard`)."))

# %% [markdown]
# ## 2. Why `tf.py_func`, and what does it cost?
#
# The seed makes its LR input with `scipy.misc.imresize(gt, 1/4, 'bicubic', 'F')`, i.e. Pillow's
# bicubic, which is not a TensorFlow op; `tf.py_func` calls it from the graph, one patch at a
# time. Python code runs only while holding the GIL, so parallel `map` calls queue for it. The
# native path computes the same numbers in the graph (Pillow's bicubic as two matrix products),
# per patch or on a whole batch. First: are the numbers the same?

# %%
def lr_pair_per_example(method):
    lr_of = {"py_func": lambda gt: lr_by_py_func(gt, SCALE),
             "native": lambda gt: resize_bicubic_matmul(gt[:, :, None], (P // SCALE,) * 2)}[method]

    def one(serialized):
        gt = parse_patch(serialized, P)
        lr = tf.reshape(lr_of(gt), [P // SCALE, P // SCALE])
        return lr / 255.0, gt / 255.0
    return one


def lr_pair_batched(serialized):
    gt = parse_patch_batch(serialized, P)
    lr = resize_bicubic_matmul(gt[..., None], (P // SCALE,) * 2)[..., 0]
    return lr / 255.0, gt / 255.0


first_records = lambda: tf1.data.TFRecordDataset(TEN_SHARDS).take(BATCH)  # noqa: E731
lr_seed, hr_seed = run_to_end(lambda: first_records().map(lr_pair_per_example("py_func"))
                              .batch(BATCH))[0]
lr_batched, hr_batched = run_to_end(lambda: first_records().batch(BATCH).map(lr_pair_batched))[0]
lr_max_diff = np.abs(lr_seed - lr_batched).max() * 255
print(f"{len(lr_seed)} patches: max |py_func LR - batched matmul LR| = {lr_max_diff:.2g} "
      f"on the 0..255 scale; HR identical: {np.array_equal(hr_seed, hr_batched)}")

fig, axes = plt.subplots(1, 3, figsize=(7, 2.5))
for ax, image, title in zip(axes, (hr_seed[0], lr_seed[0], lr_batched[0]),
                            ("HR 96×96", "LR by py_func (PIL)", "LR by matmul (native)")):
    ax.imshow(image, cmap="gray", vmin=0, vmax=1)
    ax.set_title(title, fontsize=9)
    ax.axis("off")
plt.show()

# %% [markdown]
# Throughput of read + parse + LR + batch (no shuffle, no flips) on 10 shards with 1, 2, 4 and 8
# parallel `map` calls, and how many CPU cores the process kept busy. tf.data gets a pool of 8
# threads, so that 8 calls can really run at once. Two controls separate the GIL from the number
# of cores: a `py_func` that sleeps 1 ms (the GIL is released while it waits) and one that runs
# 1 ms of Python bytecode (the GIL is held throughout).

# %%
CALLS = (1, 2, 4, 8)
LR_METHODS = ("py_func, per example (seed)", "native, per example", "native, batched matmul")
CONTROL_S = 0.001


def sleep_briefly(x):
    time.sleep(CONTROL_S)  # waits without the GIL, like I/O or C code that releases it
    return x


def python_busy(x):
    end = time.perf_counter() + CONTROL_S
    while time.perf_counter() < end:  # Python bytecode: holds the GIL
        pass
    return x


CONTROLS = {"control: py_func sleeps 1 ms (GIL released)": sleep_briefly,
            "control: py_func runs 1 ms of Python (GIL held)": python_busy}


def lr_rate(method, calls):
    def make():
        recs = tf1.data.TFRecordDataset(TEN_SHARDS, buffer_size=1 << 20).repeat()
        if method == "native, batched matmul":
            batches = recs.batch(BATCH).map(lr_pair_batched, num_parallel_calls=calls)
        else:
            one = lr_pair_per_example("py_func" if method.startswith("py_func") else "native")
            batches = recs.map(one, num_parallel_calls=calls).batch(BATCH)
        return with_threads(batches.prefetch(2), max(CALLS))
    return timed(make)


def control_rate(function, calls):
    def call(x):
        return tf.ensure_shape(tf1.py_func(function, [x], tf.int64), [])
    return timed(lambda: with_threads(tf1.data.Dataset.from_tensors(np.int64(0)).repeat()
                                      .map(call, num_parallel_calls=calls).batch(16), max(CALLS)))


lr_rates = {(method, calls): lr_rate(method, calls) for method in LR_METHODS for calls in CALLS}
control_rates = {(name, calls): control_rate(function, calls)
                 for name, function in CONTROLS.items() for calls in CALLS}

fig, (ax_rate, ax_cores, ax_gain) = plt.subplots(1, 3, figsize=(15, 3.9))
width = 0.8 / len(LR_METHODS)
for k, method in enumerate(LR_METHODS):
    x = np.arange(len(CALLS)) + k * width
    bars = ax_rate.bar(x, [lr_rates[method, c].per_s for c in CALLS], width, label=method)
    ax_rate.bar_label(bars, fmt="%.0f", fontsize=6)
    ax_cores.bar(x, [lr_rates[method, c].cores for c in CALLS], width, label=method)
for ax in (ax_rate, ax_cores):
    ax.set_xticks(np.arange(len(CALLS)) + width, [str(c) for c in CALLS])
    ax.set_xlabel("num_parallel_calls of map")
ax_rate.set_yscale("log")
ax_rate.set_ylabel("patches / s")
ax_rate.legend(fontsize=7)
ax_cores.axhline(os.cpu_count(), color="grey", linestyle=":", label="cores of this machine")
ax_cores.set_ylabel("CPU cores busy")
ax_cores.legend(fontsize=7)
series = {**{m: [lr_rates[m, c].per_s for c in CALLS] for m in LR_METHODS},
          **{n: [control_rates[n, c].per_s for c in CALLS] for n in CONTROLS}}
for name, values in series.items():
    ax_gain.plot(CALLS, np.array(values) / values[0], "o-" if name in LR_METHODS else "s--",
                 label=name)
ax_gain.plot(CALLS, CALLS, color="grey", linestyle=":", label="ideal")
ax_gain.set_xscale("log", base=2)
ax_gain.set_yscale("log", base=2)
ax_gain.set_xticks(CALLS, [str(c) for c in CALLS])
ax_gain.set_yticks([0.5, 1, 2, 4, 8], ["0.5", "1", "2", "4", "8"])
ax_gain.set_xlabel("num_parallel_calls of map")
ax_gain.set_ylabel("speed-up over 1 call")
ax_gain.legend(fontsize=6)
plt.suptitle("LR by per-example py_func vs native in-graph resize")
plt.tight_layout()
plt.show()

# %%
py = {c: lr_rates["py_func, per example (seed)", c] for c in CALLS}
native = {c: lr_rates["native, per example", c] for c in CALLS}
batched = {c: lr_rates["native, batched matmul", c] for c in CALLS}
best_py = max(py.values(), key=lambda r: r.per_s)
best_native = max(native.values(), key=lambda r: r.per_s)
best_batched = max(batched.values(), key=lambda r: r.per_s)
sleep_gain, busy_gain = (ratio(control_rates[n, 8].per_s, control_rates[n, 1].per_s)
                         for n in CONTROLS)
display(Markdown(
    f"**Answer.** `py_func` is needed only because the seed's resize is Pillow, outside "
    f"TensorFlow. It gives exactly the seed's numbers, but from 1 to 8 parallel calls it goes from "
    f"{py[1].per_s:,.0f} to {py[8].per_s:,.0f} patches/s "
    f"(×{ratio(py[8].per_s, py[1].per_s):.2f}), keeping at most "
    f"{max(r.cores for r in py.values()):.2f} of {os.cpu_count()} cores busy. The controls show "
    f"why: 8 calls of a py_func that waits without the GIL run ×{sleep_gain:.1f} faster than one, "
    f"8 calls of a py_func that runs Python ×{busy_gain:.2f}: only one thread executes Python "
    f"at a time. The same resize as in-graph matrix products (equal within {lr_max_diff:.1g} "
    f"on 0..255) reaches {best_native.per_s:,.0f} patches/s per example and "
    f"{best_batched.per_s:,.0f} on whole batches (×{ratio(best_batched.per_s, best_py.per_s):.1f} "
    f"the best py_func).\n\n"
    "| | `tf.py_func` |\n|---|---|\n"
    "| pro | any Python code (Pillow, SciPy, OpenCV) inside a graph; exactly the old numbers |\n"
    "| pro | quick to write; no need to re-implement the op |\n"
    "| con | holds the GIL while in Python: parallel calls queue (measured above) |\n"
    "| con | one Python call per example, plus tensor↔numpy copies |\n"
    "| con | unknown output shape (the seed needs `tf.reshape`) |\n"
    "| con | the function lives in this Python process: not saved in a GraphDef/SavedModel, "
    "not runnable by a remote worker, a TPU or TF Serving |"))

# %% [markdown]
# ## 3. Why shuffle and prefetch, and how big a shuffle buffer?
#
# Without a shuffle, a batch holds neighbouring patches of one photograph: highly correlated
# gradients. `shuffle(buffer)` keeps `buffer` elements and emits a random one, so a record comes
# out at most `buffer` places earlier than it was read (it may linger and come out much later):
# a small buffer mostly mixes neighbours. We sweep the buffer,
# one epoch after another with the seed's batch of 64, and measure (a) the mean displacement of a
# record from its reading position, as a fraction of the epoch (a perfect shuffle gives about
# 1/3), (b) the share of a batch taken by its most common photograph, and (c) the memory the
# buffer holds: buffer × element size, for the seed's elements (parsed `lr`, `hr` float32, since
# it shuffles after `map`) and for serialized records (shuffle before parsing).

# %%
EPOCHS = 3 if SMALL else 10
BUFFERS = [1, 4, 16, 64, 256, N]
SWEEP_SETS = {"1 shard": ONE_SHARD, "10 shards (seed)": TEN_SHARDS}


def read_positions(files):
    """Position of every record id in the unshuffled reading order of `files`."""
    order = read_order(files)
    positions = np.empty(N, dtype=np.int64)
    positions[order] = np.arange(N)
    return positions


def shuffle_quality(files, buffer, positions):
    batches = run_to_end(lambda: records(files).shuffle(buffer, seed=7).batch(BATCH)
                         .repeat(EPOCHS).map(ids_of))
    ids = np.concatenate([b[0] for b in batches]).reshape(EPOCHS, N)
    displacement = np.abs(positions[ids] - np.arange(N)).mean() / N
    return displacement, batch_mixing(batches, BATCH)[1]


quality = {}
for label, files in SWEEP_SETS.items():
    positions = read_positions(files)
    quality[label] = [shuffle_quality(files, b, positions) for b in BUFFERS]

# The seed's element after map: one lr [24, 24] and one hr [96, 96], float32.
SEED_ELEMENT_BYTES = (lr_seed.nbytes + hr_seed.nbytes) // len(lr_seed)
MEMORY_BUFFERS = np.array([1, 4, 16, 64, 256, 1000, 2000, 4000, 16000])
SEED_SHUFFLE_NUM = 2000

fig, (ax_disp, ax_major, ax_mem) = plt.subplots(1, 3, figsize=(14, 3.8))
for label in SWEEP_SETS:
    disp, major = zip(*quality[label])
    ax_disp.plot(BUFFERS, disp, "o-", label=label)
    ax_major.plot(BUFFERS, major, "o-", label=label)
ax_disp.axhline(1 / 3, color="grey", linestyle=":", label="perfect shuffle ≈ 1/3")
ax_disp.set_ylabel("mean displacement / epoch length")
ax_major.axhline(PER_IMAGE.max() / N, color="grey", linestyle=":",
                 label="largest photo's share of the data")
ax_major.set_ylabel("share of batch from its commonest photo")
for ax in (ax_disp, ax_major):
    ax.set_xscale("log")
    ax.set_xlabel(f"shuffle buffer (epoch = {N} records)")
    ax.legend(fontsize=8)
ax_mem.plot(MEMORY_BUFFERS, MEMORY_BUFFERS * SEED_ELEMENT_BYTES / 1e6, "o-",
            label=f"parsed lr+hr ({SEED_ELEMENT_BYTES} B each)")
ax_mem.plot(MEMORY_BUFFERS, MEMORY_BUFFERS * SEED_RECORD_BYTES / 1e6, "o-",
            label=f"serialized record ({SEED_RECORD_BYTES} B each)")
ax_mem.axvline(SEED_SHUFFLE_NUM, color="grey", linestyle=":", label="seed's shuffle_num")
ax_mem.set_xscale("log")
ax_mem.set_yscale("log")
ax_mem.set_xlabel("shuffle buffer")
ax_mem.set_ylabel("buffer memory (MB)")
ax_mem.legend(fontsize=8)
plt.tight_layout()
plt.show()

# %% [markdown]
# A buffer also costs start-up time: `shuffle` emits nothing until it is full, so the first batch
# waits for `buffer` elements to pass through everything before it. Measured on the seed's order
# (per-example `py_func` map with 8 calls, then shuffle, then batch), with the records repeated
# so that the buffer can exceed one epoch.

# %%
def seed_shuffle_first_batch(buffer):
    return timed(lambda: tf1.data.TFRecordDataset(TEN_SHARDS).repeat()
                 .map(lr_pair_per_example("py_func"), 8).shuffle(buffer).batch(BATCH),
                 seconds=0, warmup=0).first_s


FIRST_BUFFERS = [64, 256, 1000, 2000] + ([] if SMALL else [4000])
seed_shuffle_first_batch(FIRST_BUFFERS[0])  # warm-up, not shown: first py_func call, caches
first_batch = {b: seed_shuffle_first_batch(b) for b in FIRST_BUFFERS}
fig, ax = plt.subplots(figsize=(5, 3.2))
ax.plot(list(first_batch), list(first_batch.values()), "o-")
ax.set_xlabel("shuffle buffer")
ax.set_ylabel("first batch after (s)")
ax.set_title("Filling the buffer delays the first batch", fontsize=10)
plt.show()

# %% [markdown]
# Why `prefetch`: while the model trains on one batch, the pipeline can already make the next.
# We time steps of a loop whose "training step" sleeps as long as the pipeline needs per batch
# (the seed's per-example `py_func`, one call at a time). Today's tf.data overlaps by itself: it
# fuses `map` and `batch` into one op that computes ahead, and adds a final prefetch
# (`inject_prefetch`); to see the bare effect, "no prefetch" switches both off.

# %%
STEPS = 15 if SMALL else 40


def seed_sequential():
    return tf1.data.TFRecordDataset(TEN_SHARDS).repeat() \
        .map(lr_pair_per_example("py_func")).batch(BATCH)


def without_overlap(dataset):
    """No implicit look-ahead: no injected prefetch, no map+batch fusion."""
    options = tf.data.Options()
    options.experimental_optimization.inject_prefetch = False
    options.experimental_optimization.map_and_batch_fusion = False
    return dataset.with_options(options)


def mean_step_s(make_dataset, train_s, steps=STEPS):
    graph = tf.Graph()
    with graph.as_default():
        next_batch = tf1.data.make_one_shot_iterator(make_dataset()).get_next()
    with tf1.Session(graph=graph) as sess:
        sess.run(next_batch)
        start = time.perf_counter()
        for _ in range(steps):
            sess.run(next_batch)
            time.sleep(train_s)  # the training step
        return (time.perf_counter() - start) / steps


pipeline_s = BATCH / timed(lambda: without_overlap(seed_sequential())).per_s
train_s = pipeline_s
step_s = {"no prefetch": mean_step_s(lambda: without_overlap(seed_sequential()), train_s),
          ".prefetch(1)": mean_step_s(lambda: without_overlap(seed_sequential().prefetch(1)),
                                      train_s),
          "TF defaults, no prefetch written": mean_step_s(seed_sequential, train_s)}

fig, ax = plt.subplots(figsize=(6, 3))
bars = ax.barh(list(step_s), [v * 1e3 for v in step_s.values()])
ax.bar_label(bars, fmt="%.0f ms", fontsize=8)
ax.axvline(pipeline_s * 1e3, color="grey", linestyle=":", label="pipeline alone = training step")
ax.axvline(2 * pipeline_s * 1e3, color="black", linestyle=":", label="pipeline + training step")
ax.set_xlabel("time per training step (ms)")
ax.set_xlim(0, 1.2 * max(max(step_s.values()), 2 * pipeline_s) * 1e3)
ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
plt.show()

# %%
one, ten = quality["1 shard"], quality["10 shards (seed)"]
need = next((b for b, (_, major) in zip(BUFFERS, one) if major <= 1.5 * one[-1][1]), N)
holds_epoch = (f", so the seed's {SEED_SHUFFLE_NUM} already holds the whole epoch"
               if SEED_SHUFFLE_NUM >= N else "")
display(Markdown(
    f"**Answer.** Without a shuffle (buffer 1) a batch of the single file takes "
    f"{one[0][1]:.0%} of its records from one photograph; a full-epoch buffer brings that to "
    f"{one[-1][1]:.0%} (the largest photograph holds {PER_IMAGE.max() / N:.0%} of all patches). "
    f"Displacement grows with the buffer: {one[BUFFERS.index(64)][0]:.3f} of the epoch at 64, "
    f"{one[-1][0]:.3f} with the whole epoch (1/3 is perfect). On the single file the commonest-"
    f"photograph share falls within 1.5× of a perfect shuffle's from a buffer of {need}; the "
    f"seed's 10 shards read in turn start better ({ten[0][1]:.0%} at buffer 1, as their reading "
    f"order already interleaves photographs).\n\n"
    f"Size it from three measured costs: memory ({SEED_ELEMENT_BYTES:,} B per parsed element, so "
    f"the seed's {SEED_SHUFFLE_NUM} cost {SEED_SHUFFLE_NUM * SEED_ELEMENT_BYTES / 1e6:.0f} MB; "
    f"{SEED_RECORD_BYTES:,} B per serialized record, "
    f"{SEED_SHUFFLE_NUM * SEED_RECORD_BYTES / 1e6:.0f} MB), start-up "
    f"({first_batch[FIRST_BUFFERS[0]]:.2f} s for {FIRST_BUFFERS[0]}, "
    f"{first_batch[SEED_SHUFFLE_NUM]:.2f} s for {SEED_SHUFFLE_NUM} before the first batch), and "
    f"the reach needed: as large as the span of correlated records in reading order (here one "
    f"photograph, up to {PER_IMAGE.max()} patches), and no larger than an epoch ({N} records"
    f"{holds_epoch}"
    f"). Shuffling serialized "
    f"records costs {SEED_ELEMENT_BYTES / SEED_RECORD_BYTES:.1f}× less memory per element.\n\n"
    f"Prefetch overlaps the pipeline with training: "
    f"{step_s['no prefetch'] * 1e3:.0f} ms per step without it, "
    f"{step_s['.prefetch(1)'] * 1e3:.0f} ms with `.prefetch(1)` "
    f"(pipeline alone {pipeline_s * 1e3:.0f} ms, training step {train_s * 1e3:.0f} ms). Today's "
    f"tf.data overlaps even when no prefetch is written "
    f"({step_s['TF defaults, no prefetch written'] * 1e3:.0f} ms); writing `.prefetch` makes the "
    f"overlap explicit instead of leaving it to these optimisations."))

# %% [markdown]
# ## 4. Can map / shuffle / batch / repeat be reordered?
#
# Each order is a different pipeline. Three pairs, with record ids read from the data.
#
# **batch before or after repeat**: the epoch boundary. Ten records, batches of 3, two epochs:

# %%
def ten_ids():
    return tf1.data.TFRecordDataset(ONE_SHARD).take(10).map(
        lambda x: tf1.parse_single_example(x, {"id": ID_FEATURES["id"]})["id"])


ORDERINGS = {".batch(3).repeat(2)": lambda d: d.batch(3).repeat(2),
             ".repeat(2).batch(3)": lambda d: d.repeat(2).batch(3),
             ".repeat(2).batch(3, drop_remainder=True)":
                 lambda d: d.repeat(2).batch(3, drop_remainder=True),
             ".batch(3, drop_remainder=True).repeat(2)":
                 lambda d: d.batch(3, drop_remainder=True).repeat(2)}
shown_batches = {name: run_to_end(lambda order=order: order(ten_ids())) for name, order in ORDERINGS.items()}
width = max(map(len, ORDERINGS))
for name, batches in shown_batches.items():
    print(f"{name:<{width}}  " + "  ".join(str(list(map(int, b))) for b in batches))

SIZE_EPOCHS = 3
full_sizes = {}
for name, order in {"batch(64).repeat(3)": lambda d: d.batch(BATCH).repeat(SIZE_EPOCHS),
                    "repeat(3).batch(64)": lambda d: d.repeat(SIZE_EPOCHS).batch(BATCH)}.items():
    batches = run_to_end(lambda order=order: order(records(ONE_SHARD)).map(ids_of))
    sizes = collections.Counter(len(ids) for ids, _ in batches)
    spanning = sum(1 for ids, _ in batches if len(set(ids.tolist())) < len(ids)
                   or (np.diff(ids) < 0).any())
    full_sizes[name] = (sizes, spanning)
    print(f"{name}: batch sizes {dict(sorted(sizes.items(), reverse=True))}, "
          f"{spanning} batches span an epoch boundary")

# %% [markdown]
# **shuffle before or after repeat**: with `repeat` after `shuffle`, each epoch is shuffled on
# its own (and reshuffled every epoch); with `shuffle` after `repeat`, the buffer straddles the
# boundary, so records of the second epoch come out before the first epoch is over and a record
# can appear twice close together. Buffer 128, two epochs; each dot is one output record.

# %%
REPEAT_BUFFER = 128
REPEAT_ORDERS = {f".shuffle({REPEAT_BUFFER}).repeat(2)":
                     lambda d: d.shuffle(REPEAT_BUFFER, seed=3).repeat(2),
                 f".repeat(2).shuffle({REPEAT_BUFFER})":
                     lambda d: d.repeat(2).shuffle(REPEAT_BUFFER, seed=3)}
mixed = {}
fig, axes = plt.subplots(1, 2, figsize=(12, 3.8), sharey=True)
for ax, (name, order) in zip(axes, REPEAT_ORDERS.items()):
    ids = np.concatenate([b[0] for b in run_to_end(lambda order=order: order(records(ONE_SHARD))
                                                                       .batch(BATCH).map(ids_of))])
    seen, copy = set(), np.zeros(len(ids), dtype=int)
    for position, record in enumerate(ids):
        copy[position] = record in seen
        seen.add(record)
    early = int(copy[:N].sum())  # second copies among the first N outputs
    twice = sum(len(set(ids[i:i + BATCH].tolist())) < len(ids[i:i + BATCH])
                for i in range(0, len(ids), BATCH))
    mixed[name] = (early, twice)
    for c, label in ((0, "first copy (epoch 1)"), (1, "second copy (epoch 2)")):
        ax.scatter(np.flatnonzero(copy == c), ids[copy == c], s=3, label=label)
    ax.axvline(N, color="grey", linestyle=":")
    ax.set_title(f"{name}\nepoch-2 records before position {N}: {early}; "
                 f"batches holding a record twice: {twice}", fontsize=9)
    ax.set_xlabel("output position")
axes[0].set_ylabel("record id")
axes[0].legend(fontsize=8, markerscale=3)
plt.show()

# %% [markdown]
# **map before or after batch**: a per-example map runs its ops once per patch, a per-batch map
# once per batch (it needs batch-aware ops: `parse_example`, batched matmul, per-example random
# flips drawn as a vector). The values are the same; the throughput is not (measured in section 2).

# %%
after_batch, before_batch = best_batched.per_s, best_native.per_s
display(Markdown(
    "**Answer.** Yes, every order runs, but each changes something:\n\n"
    "| order | what changes (measured above) |\n|---|---|\n"
    f"| `batch` then `repeat` (the seed) | every epoch ends with a short batch "
    f"({sorted(full_sizes['batch(64).repeat(3)'][0])[0]} of {BATCH} here); batches spanning two "
    f"epochs: {full_sizes['batch(64).repeat(3)'][1]} |\n"
    f"| `repeat` then `batch` | all batches full except the very last; "
    f"{full_sizes['repeat(3).batch(64)'][1]} of them mix two epochs; `drop_remainder=True` drops "
    f"the tail (TF1 `shuffle_batch` default) |\n"
    f"| `shuffle` then `repeat` | epochs stay apart and are reshuffled each time: "
    f"{mixed[list(REPEAT_ORDERS)[0]][0]} epoch-2 records in epoch 1 |\n"
    f"| `repeat` then `shuffle` | {mixed[list(REPEAT_ORDERS)[1]][0]} epoch-2 records come before "
    f"epoch 1 ends; batches holding a record twice: {mixed[list(REPEAT_ORDERS)[1]][1]}; the "
    f"buffer never drains at an epoch end |\n"
    f"| `map` then `batch` | per-example ops: {before_batch:,.0f} patches/s (native resize) |\n"
    f"| `batch` then `map` | per-batch ops: {after_batch:,.0f} patches/s "
    f"(×{ratio(after_batch, before_batch):.1f}); same values (max difference "
    f"{lr_max_diff:.1g} from the seed's resize) |\n"
    f"| `shuffle` before `map` | buffer holds serialized records: {SEED_RECORD_BYTES:,} B instead "
    f"of {SEED_ELEMENT_BYTES:,} B each; random flips still differ per epoch |\n"
    f"| `prefetch` last | overlaps the whole pipeline with training (section 3) |"))

# %% [markdown]
# ## 5. TFRecords or a generator?
#
# The seed has two readers: `read_tfrecords` (convert once with `gen_tfrecords`, then read the
# fixed grid of patches from the records) and `read_pngs` (a Python generator decodes the PNGs and
# cuts 100 random patches per photograph, every epoch anew). Both through the uniform face
# (`tp.load_pipeline("div2k_sr", backend=...)`, the seed's shuffle 2000 and batch 64), with the
# seed's per-example `py_func` resize or the native batched one.

# %%
SEED_RECORDS = os.path.join(WORK, "seed_records")
start = time.perf_counter()
written = write_patch_records(PNGS, SEED_RECORDS, P, 10)
convert_s = time.perf_counter() - start
records_mb = sum(os.path.getsize(f) for f in glob.glob(os.path.join(SEED_RECORDS, "*.tfrecords")))
records_mb /= 1e6
png_mb = sum(os.path.getsize(p) for p in PNGS) / 1e6

SOURCES = [("tfrecords", "py_func"), ("tfrecords", "native"),
           ("generator", "py_func"), ("generator", "native")]
source_rates = {}
for backend, lr_method in SOURCES:
    where = {"tfrecord_dir": SEED_RECORDS} if backend == "tfrecords" else {"data_dir": DATA_DIR}
    with tp.load_pipeline("div2k_sr", backend=backend, lr_method=lr_method, batch_size=BATCH,
                          seed=0, **where) as pipeline:
        source_rates[backend, lr_method] = rate_of(pipeline.get_batch)
generator_per_epoch = 100 * len(PNGS)  # one_img_patch_num per photograph

labels = [f"{backend}\n{lr_method}" for backend, lr_method in SOURCES]
fig, (ax_rate, ax_first, ax_share) = plt.subplots(1, 3, figsize=(14, 3.8))
bars = ax_rate.bar(labels, [source_rates[s].per_s for s in SOURCES], color="C0")
ax_rate.bar_label(bars, fmt="%.0f", fontsize=8)
ax_rate.set_ylabel("patches / s")
bars = ax_first.bar(labels, [source_rates[s].first_s for s in SOURCES], color="C1")
ax_first.bar_label(bars, fmt="%.2f s", fontsize=8)
ax_first.set_ylabel("first batch after (s)")
x = np.arange(len(PNGS))
ax_share.bar(x - 0.2, PER_IMAGE / N, 0.4, label=f"tfrecords (grid, {N} per epoch)")
ax_share.bar(x + 0.2, np.full(len(PNGS), 100 / generator_per_epoch), 0.4,
             label=f"generator (100 random per photo, {generator_per_epoch} per epoch)")
ax_share.set_xticks(x, NAMES, rotation=45, ha="right", fontsize=8)
ax_share.set_ylabel("share of an epoch")
ax_share.legend(fontsize=8)
plt.tight_layout()
plt.show()

# %%
rec_py, rec_nat = source_rates["tfrecords", "py_func"], source_rates["tfrecords", "native"]
gen_py, gen_nat = source_rates["generator", "py_func"], source_rates["generator", "native"]
display(Markdown(
    f"**Answer.** TFRecords: {rec_py.per_s:,.0f} patches/s with the seed's py_func, "
    f"{rec_nat.per_s:,.0f} native; the generator: {gen_py.per_s:,.0f} and {gen_nat.per_s:,.0f} "
    f"(one Python thread decodes, crops and converts every patch, and `from_generator` cannot run "
    f"it in parallel). First batch: {rec_nat.first_s:.2f} s from records, {gen_nat.first_s:.2f} s "
    f"from the generator (native resize). The records cost a one-off conversion "
    f"({convert_s:.1f} s for {written} patches here) and {records_mb:.1f} MB of disk beside "
    f"{png_mb:.1f} MB of PNGs (raw luma patches overlap by a third and are not compressed).\n\n"
    f"| | TFRecords | generator |\n|---|---|---|\n"
    f"| throughput (native resize) | {rec_nat.per_s:,.0f}/s | {gen_nat.per_s:,.0f}/s |\n"
    f"| first batch | {rec_nat.first_s:.2f} s | {gen_nat.first_s:.2f} s |\n"
    f"| patches per epoch | {N}, the same every epoch (flips vary) | {generator_per_epoch}, new "
    f"random crops every epoch |\n"
    f"| largest photo's share | {PER_IMAGE.max() / N:.0%} (grid: big photos give more) | "
    f"{100 / generator_per_epoch:.0%} (fixed per photo) |\n"
    f"| parallel / sharded reading | yes (`num_parallel_reads`, `Dataset.shard`) | no: one Python "
    f"iterator under the GIL |\n"
    f"| preparation | conversion + disk space, redo when the data or patch size change | none: "
    f"edit the code, rerun |\n\n"
    "**Where each fits.** TFRecords: long training runs over a fixed data set, large data read "
    "from network storage or by several workers, pipelines that must run without Python "
    "(TPU, serving). Generator: prototyping, data that changes often, augmentation that is easiest "
    "in Python, data small enough that one Python thread keeps up with the model."))

# %% [markdown]
# ## Summary

# %%
display(Markdown(
    "| question | measured answer |\n|---|---|\n"
    f"| why 10 shards? | parallel reads: "
    f"×{ratio(read_rates[slow, par], read_rates[slow, '1 shard']):.1f} when reads wait "
    f"(×{ratio(read_rates[local, par], read_rates[local, '1 shard']):.2f} from page cache); "
    f"a buffer of {SMALL_BUFFER} mixes {mixing[seq][0]:.1f} photos per batch "
    f"over shards read in turn vs {mixing['1 shard'][0]:.1f} from one file |\n"
    f"| why py_func? | the seed's Pillow resize outside TF; 1→8 calls gives "
    f"×{ratio(py[8].per_s, py[1].per_s):.2f} (GIL, ≤{max(r.cores for r in py.values()):.2f} "
    f"cores); in-graph batched resize ×{ratio(best_batched.per_s, best_py.per_s):.1f} faster, "
    f"same values |\n"
    f"| shuffle / prefetch, buffer size? | no shuffle: {one[0][1]:.0%} of a batch from one photo; "
    f"buffer ≥ span of correlated records, ≤ epoch; {SEED_ELEMENT_BYTES:,} B/element, "
    f"{first_batch[SEED_SHUFFLE_NUM]:.2f} s to fill {SEED_SHUFFLE_NUM}; prefetch: "
    f"{step_s['no prefetch'] * 1e3:.0f} → {step_s['.prefetch(1)'] * 1e3:.0f} ms per step |\n"
    f"| reorder? | changes epoch boundaries, cross-epoch mixing, memory, and speed "
    f"(batch-then-map ×{ratio(after_batch, before_batch):.1f}) |\n"
    f"| TFRecords vs generator? | {rec_nat.per_s:,.0f} vs {gen_nat.per_s:,.0f} patches/s, first "
    f"batch {rec_nat.first_s:.2f} vs {gen_nat.first_s:.2f} s; records need a {convert_s:.1f} s "
    f"conversion |"))

# %%
shutil.rmtree(WORK)
