# %% [markdown]
# # Queue vs tf.data: the same records through four kinds of input
#
# TensorFlow 1 code fed its graphs in four ways (seed 004 §1 and seed 003):
#
# | input | how a batch enters the graph |
# |---|---|
# | **constant** | the whole data set is a `tf.constant` in the graph; batches are sliced from it |
# | **feed_dict** | numpy batches go in through placeholders at every `sess.run` |
# | **queue** | reader threads (`QueueRunner`) parse records into a `RandomShuffleQueue`; `shuffle_batch` dequeues |
# | **tf.data** | an iterator over `TFRecordDataset → map(parse) → shuffle → batch → prefetch` |
#
# All four run here on the **same records**, through the project's pipelines
# (`tp.load_pipeline("constant" | "feeding" | "voc_segmentation", backend="queue" | "dataset")`).
# We measure throughput, watch the queues fill and drain, and show what `min_after_dequeue` does
# to the order of the records. With `TF1P_NOTEBOOK_SMALL=1` the data and timed windows are
# smaller (the test suite runs it that way). Timings are the machine's: compare ratios.

# %%
import os
import shutil
import tempfile
import time
from typing import NamedTuple

import matplotlib.pyplot as plt
import numpy as np
import tensorflow as tf
from IPython.display import Markdown, display

import tf1_pipelines as tp
from tf1_pipelines.data import sample_data
from tf1_pipelines.inputs.queue import sample_fill
from tf1_pipelines.pipelines.voc_segmentation import mask_from_luma, pair_to_example
from tf1_pipelines.records.serialize import serialize
from tf1_pipelines.records.writer import AtomicRecordWriters

tf.get_logger().setLevel("ERROR")
tf1 = tf.compat.v1

SMALL = os.environ.get("TF1P_NOTEBOOK_SMALL") == "1"
SECONDS = 0.4 if SMALL else 2.5       # length of every timed window
NUM_RECORDS = 256 if SMALL else 1024  # records in the shared record file
TILE, BATCH = 64, 32                  # 64×64 RGB tiles, batches of 32
print(f"TensorFlow {tf.__version__}, {'small' if SMALL else 'full'} run, "
      f"{SECONDS} s per timed window, {os.cpu_count()} CPU cores")

# %% [markdown]
# ## The records
#
# 64×64 tiles cut from the photographs bundled with scikit-image, each with a 4-class mask
# (luma bands, as the pipeline's embedded VOC-like data), written in seed 003's record format
# (`height`, `width`, `image_raw`, `mask_raw`) to one file. To follow every record through every
# input, **the mask carries the record's id**: its first two pixels hold `id // 256` and
# `id % 256`. The constant and feed_dict inputs get the same tiles and masks as numpy arrays.

# %%
WORK = tempfile.mkdtemp(prefix="queue_vs_tfdata_")
tiles, sources = [], []
for index, name in enumerate(sample_data.PHOTOGRAPHS):
    photo = sample_data.load_photograph(name)
    for row in range(0, photo.shape[0] - TILE + 1, TILE):
        for col in range(0, photo.shape[1] - TILE + 1, TILE):
            tiles.append(photo[row:row + TILE, col:col + TILE])
            sources.append(index)
pick = np.linspace(0, len(tiles) - 1, NUM_RECORDS).astype(int)  # spread over all photographs
IMAGES = np.stack([tiles[i] for i in pick])
MASKS = np.stack([mask_from_luma(tile) for tile in IMAGES])
IDS = np.arange(NUM_RECORDS)
MASKS[:, 0, 0], MASKS[:, 0, 1] = IDS // 256, IDS % 256
RECORDS = os.path.join(WORK, "tiles.tfrecords")
with AtomicRecordWriters([RECORDS]) as writers:
    for image, mask in zip(IMAGES, MASKS):
        writers.write(0, serialize(pair_to_example(image, mask)))
ARRAYS = {"image": IMAGES, "mask": MASKS[..., None]}  # the fields of the VOC pipeline's Batch


def record_ids(mask_batch):
    """The ids carried by a batch of masks uint8 [B, H, W, 1]."""
    return mask_batch[:, 0, 0, 0].astype(int) * 256 + mask_batch[:, 0, 1, 0]


assert np.array_equal(record_ids(ARRAYS["mask"]), IDS)
fig, axes = plt.subplots(2, 8, figsize=(12, 3.3))
for k, i in enumerate(np.linspace(0, NUM_RECORDS - 1, 8).astype(int)):
    axes[0, k].imshow(IMAGES[i])
    axes[0, k].set_title(f"id {i}", fontsize=8)
    axes[1, k].imshow(MASKS[i], cmap="viridis", vmin=0, vmax=3)
for ax in axes.flat:
    ax.axis("off")
plt.suptitle("Some records: tile (top) and mask (bottom)")
plt.tight_layout()
plt.show()
print(f"{NUM_RECORDS} records of {len(tiles)} possible tiles from "
      f"{len(sample_data.PHOTOGRAPHS)} photographs; record file "
      f"{os.path.getsize(RECORDS) / 1e6:.1f} MB")

# %% [markdown]
# One function loads any of the four inputs with the same batch size and the same shuffling
# capacity: the queue's `shuffle_batch` gets `min_after_dequeue = 64` and
# `capacity = min_after_dequeue + 3 × batch` (the formula TF1's documentation recommended), and
# tf.data shuffles with a buffer of that capacity. The constant and feed_dict inputs shuffle all
# records every epoch.

# %%
MIN_AFTER_DEQUEUE = 64
INPUTS = ("constant", "feed_dict", "queue", "tf.data")


def load(kind, batch_size=BATCH, min_after_dequeue=MIN_AFTER_DEQUEUE, num_threads=2, **options):
    if kind == "constant":
        return tp.load_pipeline("constant", arrays=ARRAYS, batch_size=batch_size, **options)
    if kind == "feed_dict":
        return tp.load_pipeline("feeding", arrays=ARRAYS, batch_size=batch_size, **options)
    return tp.load_pipeline(
        "voc_segmentation", backend={"queue": "queue", "tf.data": "dataset"}[kind],
        tfrecords=RECORDS, image_height=TILE, image_width=TILE, batch_size=batch_size,
        min_after_dequeue=min_after_dequeue, capacity=min_after_dequeue + 3 * batch_size,
        num_threads=num_threads, **options)


def one_epoch(kind, pause_s=0.0, **options):
    """Ids in delivery order over one epoch (every record, the last batch kept); with
    `pause_s` the consumer spends that long on every batch."""
    if kind in ("queue", "tf.data"):
        options["allow_smaller_final_batch"] = True
    ids = []
    with load(kind, num_epochs=1, seed=0, **options) as pipeline:
        for batch in pipeline:
            ids.append(record_ids(batch.mask))
            time.sleep(pause_s)
    return np.concatenate(ids)


def displacement(ids):
    """Mean |delivery position - id|: 0 for the file order, about N/3 for a full shuffle."""
    return float(np.mean(np.abs(np.arange(len(ids)) - ids)))


epochs = {kind: one_epoch(kind) for kind in INPUTS}
rows = "\n".join(
    f"| {kind} | {len(ids)} | {len(np.unique(ids))} | "
    f"{'yes' if np.array_equal(np.sort(ids), IDS) else '**no**'} | "
    f"{' '.join(map(str, ids[:8]))} … | {displacement(ids):.0f} |"
    for kind, ids in epochs.items())
display(Markdown(
    "One epoch through each input (`num_epochs=1`):\n\n"
    "| input | records delivered | distinct ids | every record exactly once | first ids | "
    "mean displacement |\n|---|---|---|---|---|---|\n" + rows))

# %% [markdown]
# ## 1. Throughput
#
# Two ways to consume a batch: **fetch** it to numpy (`pipeline.get_batch()`), or **use it in the
# graph** (a `sess.run` of a small op wired to `pipeline.tensors`, as a model would be, with
# `pipeline.feed_dict()`; for feed_dict that is the next batch). Fetching a fed placeholder hands
# the fed array straight back, so only the second way shows what feeding costs. Each input repeats
# forever; the first batch is timed separately (it includes starting threads and filling buffers).

# %%
class Rate(NamedTuple):
    per_s: float    # examples per second
    first_s: float  # seconds to the first batch


def rate_of(step, seconds=SECONDS, warmup=3):
    """Time `step()` (which returns the number of examples it consumed)."""
    start = time.perf_counter()
    step()
    first = time.perf_counter() - start
    for _ in range(warmup):
        step()
    examples, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        examples += step()
    return Rate(examples / (time.perf_counter() - start), first)


fetch_rates, graph_rates = {}, {}
for kind in INPUTS:
    with load(kind, num_epochs=None, seed=0) as pipeline:
        fetch_rates[kind] = rate_of(lambda: len(pipeline.get_batch().image))
    with load(kind, num_epochs=None, seed=0) as pipeline:
        with pipeline.graph.as_default():
            image = tf.cast(pipeline.tensors.image, tf.float32)
            consume = (tf.reduce_mean(image), tf.shape(image)[0])  # a stand-in for a model
        pipeline.get_batch()  # starts the queue runners / initialises the iterator
        graph_rates[kind] = rate_of(
            lambda consume=consume: pipeline.session.run(consume, feed_dict=pipeline.feed_dict())[1])

fig, (ax_rate, ax_first) = plt.subplots(1, 2, figsize=(12, 3.8),
                                        gridspec_kw={"width_ratios": [2, 1]})
x = np.arange(len(INPUTS))
for offset, (label, rates) in zip((-0.2, 0.2), (("fetched to numpy (get_batch)", fetch_rates),
                                                 ("used in the graph", graph_rates))):
    bars = ax_rate.bar(x + offset, [rates[k].per_s for k in INPUTS], 0.4, label=label)
    ax_rate.bar_label(bars, fmt="%.0f", fontsize=8)
ax_rate.set_xticks(x, INPUTS)
ax_rate.set_ylabel("examples / s")
ax_rate.set_yscale("log")
ax_rate.legend(fontsize=8)
ax_rate.set_title(f"Throughput, batches of {BATCH} tiles of {TILE}×{TILE}")
bars = ax_first.bar(INPUTS, [fetch_rates[k].first_s for k in INPUTS], color="C2")
ax_first.bar_label(bars, fmt="%.2f s", fontsize=8)
ax_first.set_ylabel("seconds")
ax_first.set_title("First batch after")
plt.tight_layout()
plt.show()

# %%
fastest = max(INPUTS, key=lambda k: graph_rates[k].per_s)
queue_r, data_r = graph_rates["queue"].per_s, graph_rates["tf.data"].per_s
display(Markdown(
    f"**Reading.** Used in the graph, the constant input gives "
    f"{graph_rates['constant'].per_s:,.0f} examples/s and feed_dict "
    f"{graph_rates['feed_dict'].per_s:,.0f}: both already hold decoded arrays in memory; "
    f"feed_dict copies every batch from numpy into the session, the constant input slices and "
    f"shuffles inside tf.data (no file, no parsing). The queue and tf.data "
    f"read, parse and crop every record from the file each epoch: {queue_r:,.0f} and "
    f"{data_r:,.0f} examples/s (tf.data ×{data_r / queue_r:.2f} the queue). The fastest here is "
    f"{fastest}. Fetched to numpy, feed_dict shows {fetch_rates['feed_dict'].per_s:,.0f}/s, which "
    f"measures nothing but Python: the fed array is returned as is. The constant input's first "
    f"batch takes {fetch_rates['constant'].first_s:.2f} s because the whole data set "
    f"({sum(a.nbytes for a in ARRAYS.values()) / 1e6:.1f} MB) is copied into the graph; it only "
    f"suits data far below the 2 GB GraphDef limit."))

# %% [markdown]
# ## 2. Queue fill over time
#
# `Pipeline.queue_fill()` reads the figures the `tf.train` queues record for TensorBoard:
# `input_producer/fraction_of_32_full` (file names waiting for the reader) and
# `shuffle_batch/fraction_over_64_of_N_full` (examples above `min_after_dequeue`, as a fraction
# of the room above it). `sample_fill` samples them while a consumer runs: a **fast** consumer
# that only takes batches, and a **slow** one that also spends 20 ms per batch (a training
# step). The first step starts the reader threads. tf.data has no such queues: its buffers are
# not visible as queue sizes.

# %%
STEP_S = 0.02
FILL_S = 0.8 if SMALL else 3.0
CONSUMERS = {"fast consumer": lambda p: p.get_batch(),
             f"slow consumer ({STEP_S * 1e3:.0f} ms per batch)":
                 lambda p: (p.get_batch(), time.sleep(STEP_S))}
fills = {}
for name, consume in CONSUMERS.items():
    with load("queue", num_epochs=None, seed=0) as pipeline:
        fills[name] = sample_fill(pipeline, duration=FILL_S, step=lambda consume=consume: consume(pipeline))

fig, axes = plt.subplots(1, len(fills), figsize=(12, 3.4), sharey=True)
mean_fill = {}
for ax, (name, samples) in zip(axes, fills.items()):
    times = np.array([t for t, _ in samples])
    for tag in samples[-1][1]:
        values = np.array([levels.get(tag, np.nan) for _, levels in samples])
        ax.plot(times, values, label=tag.split("/", 1)[-1], drawstyle="steps-post")
        if "shuffle_batch" in tag:
            mean_fill[name] = float(np.nanmean(values[times > times[-1] / 2]))
    rate = (len(samples) - 1) * BATCH / times[-1]
    ax.set_title(f"{name}\n{len(samples) - 1} batches, {rate:,.0f} examples/s", fontsize=9)
    ax.set_xlabel("seconds")
    ax.set_ylim(-0.05, 1.05)
axes[0].set_ylabel("fraction full")
axes[0].legend(fontsize=8, loc="center right")
plt.tight_layout()
plt.show()

# %%
fast, slow = list(CONSUMERS)
display(Markdown(
    f"**Reading.** Over the second half of each run the shuffle queue's fill above "
    f"`min_after_dequeue` averaged {mean_fill[fast]:.0%} with the fast consumer and "
    f"{mean_fill[slow]:.0%} with the slow one. A consumer "
    f"faster than the reader keeps the queue at its floor: every batch waits for the reader "
    f"thread, and only `min_after_dequeue` examples are there to shuffle among. A slower "
    f"consumer finds the queue full: the input is not the bottleneck, and the batch is drawn "
    f"from the whole `capacity`. The filename queue stays full in all runs (one file, listed "
    f"over and over). In TensorBoard these are the `fraction_of_…_full` curves; a shuffle queue "
    f"stuck near 0 means the input limits training."))

# %% [markdown]
# ## 3. What `min_after_dequeue` does to randomness
#
# The queue input with one reader thread (`num_threads=1`) and batches of 8 over one epoch, for
# several `min_after_dequeue` values (capacity again `min_after_dequeue + 3 × batch`). Each dot is
# one delivered record: its delivery position and its id; without shuffling the dots would lie on
# the diagonal. Section 2 showed that the consumer's speed decides how full the queue is, so
# every value runs twice: with a fast consumer, and with a slow one that spends 10 ms per batch.
# Then the mean displacement (mean |position − id|), compared with tf.data's `shuffle` with a
# buffer of the same capacity, and the time from starting the reader thread to the first batch
# (a dequeue waits until the queue holds `min_after_dequeue + batch` examples).

# %%
ORDER_BATCH, ORDER_PAUSE_S = 8, 0.01
MADS = (0, 16, 64, 192) if SMALL else (0, 16, 64, 256, 768)
ORDER_CASES = {"queue, fast consumer": ("queue", 0.0),
               f"queue, slow consumer ({ORDER_PAUSE_S * 1e3:.0f} ms per batch)":
                   ("queue", ORDER_PAUSE_S),
               "tf.data, shuffle(buffer = capacity)": ("tf.data", 0.0)}
orders, first_batch_s = {}, {}
for mad in MADS:
    for case, (kind, pause_s) in ORDER_CASES.items():
        orders[case, mad] = one_epoch(kind, pause_s, batch_size=ORDER_BATCH,
                                      min_after_dequeue=mad, num_threads=1)
    with load("queue", batch_size=ORDER_BATCH, min_after_dequeue=mad, num_threads=1,
              num_epochs=None) as pipeline:
        pipeline.queue_fill()  # builds the graph and the session; no thread runs yet
        start = time.perf_counter()
        pipeline.get_batch()
        first_batch_s[mad] = time.perf_counter() - start
disp = {key: displacement(ids) for key, ids in orders.items()}

SHOWN = list(ORDER_CASES)[:2]
fig, axes = plt.subplots(len(SHOWN), len(MADS), figsize=(2.8 * len(MADS), 5.6),
                         sharex=True, sharey=True)
for row, case in zip(axes, SHOWN):
    for ax, mad in zip(row, MADS):
        ids = orders[case, mad]
        ax.scatter(np.arange(len(ids)), ids, s=1.5, color="C0" if "fast" in case else "C1")
        ax.plot([0, NUM_RECORDS], [0, NUM_RECORDS], color="grey", linewidth=0.5)
        ax.set_title(f"min_after_dequeue={mad} (capacity {mad + 3 * ORDER_BATCH})\n"
                     f"displacement {disp[case, mad]:.1f}", fontsize=8)
    row[0].set_ylabel(f"{case.split(', ')[1].split(' (')[0]}\nrecord id")
for ax in axes[-1]:
    ax.set_xlabel("delivery position")
plt.tight_layout()
plt.show()

fig, (ax_disp, ax_first) = plt.subplots(1, 2, figsize=(12, 3.6),
                                        gridspec_kw={"width_ratios": [3, 2]})
for marker, case in zip("o^s", ORDER_CASES):
    ax_disp.plot(MADS, [disp[case, m] for m in MADS], marker + "-", label=case)
ax_disp.axhline(NUM_RECORDS / 3, color="grey", linestyle=":", label="full shuffle (N/3)")
ax_disp.set_xscale("symlog", linthresh=16)
ax_disp.set_xticks(MADS, [str(m) for m in MADS])
ax_disp.set_xlim(-2, MADS[-1] * 1.1)
ax_disp.set_xlabel("min_after_dequeue")
ax_disp.set_ylabel("mean |position − id|")
ax_disp.legend(fontsize=8)
bars = ax_first.bar([str(m) for m in MADS], [first_batch_s[m] for m in MADS], color="C2")
ax_first.bar_label(bars, fmt="%.2f s", fontsize=8)
ax_first.set_xlabel("min_after_dequeue")
ax_first.set_ylabel("first batch after (s)")
plt.tight_layout()
plt.show()

# %%
fast_case, slow_case, data_case = ORDER_CASES
low, high = MADS[0], MADS[-1]
display(Markdown(
    f"**Reading.** `min_after_dequeue` is the *least* number of examples a dequeue chooses "
    f"from; how many it really chooses from depends on how full the queue is. With "
    f"`min_after_dequeue={low}` and a fast consumer the records came out with displacement "
    f"{disp[fast_case, low]:.1f}: a waiting dequeue takes each example as soon as the reader "
    f"enqueues it, so there is hardly ever anything to choose from. The slow consumer lets the queue fill up to "
    f"its capacity ({low + 3 * ORDER_BATCH}) and gets {disp[slow_case, low]:.1f}. At "
    f"`min_after_dequeue={high}`: {disp[fast_case, high]:.0f} (fast) and "
    f"{disp[slow_case, high]:.0f} (slow); a full shuffle of {NUM_RECORDS} records gives about "
    f"{NUM_RECORDS / 3:.0f}. tf.data's `shuffle` always fills its buffer before it hands out an "
    f"element, so its mixing does not depend on the consumer: {disp[data_case, low]:.1f} at "
    f"buffer {low + 3 * ORDER_BATCH}, {disp[data_case, high]:.0f} at "
    f"{high + 3 * ORDER_BATCH}. The price of a large `min_after_dequeue` is memory (up to "
    f"`capacity` examples held) and start-up: the first batch came after "
    f"{first_batch_s[low]:.2f} s at {low} and {first_batch_s[high]:.2f} s at {high}. Seed 004 "
    f"keeps 16 × 1024 = 16384 examples."))

# %% [markdown]
# ## 4. Bucketing sentences of different lengths
#
# Sequence models of 2016–2017 (seq2seq, speech, NMT) batched variable-length sentences padded to
# the longest of the batch, and grouped sentences of similar length first so that little of each
# batch is padding. The queue way was `tf.contrib.training.bucket_by_sequence_length` (one queue per
# bucket, `dynamic_pad=True`; here from `tf1_pipelines.inputs.bucketing`, which
# `python -m compat run` serves under that name); the tf.data way is `Dataset.bucket_by_sequence_length`.
# Sentences are made from a fixed word list with a seeded generator; we count the padding each way
# and check that every sentence came out once.

# %%
from tf1_pipelines.inputs.bucketing import bucket_by_sequence_length  # noqa: E402

WORDS = "the a cat dog sat on mat and ran to home fast slow red blue big small".split()
NUM_SENTENCES = 200 if SMALL else 2000
BOUNDARIES, SENTENCE_BATCH = [6, 11, 16], 16
rng = np.random.RandomState(0)
lengths = rng.randint(1, 21, size=NUM_SENTENCES)
sentences = [rng.randint(1, len(WORDS), size=n) for n in lengths]  # word ids; 0 is padding
padded = np.zeros((NUM_SENTENCES, lengths.max()), np.int64)
for i, s in enumerate(sentences):
    padded[i, :len(s)] = s


def queue_buckets() -> list[np.ndarray]:
    """Batches from the TF1 queue recipe: slice_input_producer -> bucket_by_sequence_length."""
    with tf.Graph().as_default():
        row, n = tf1.train.slice_input_producer([padded, lengths.astype(np.int32)], num_epochs=1,
                                                shuffle=False)
        _, (batch,) = bucket_by_sequence_length(n, [row[:n]], SENTENCE_BATCH, BOUNDARIES,
                                                dynamic_pad=True, allow_smaller_final_batch=True)
        out = []
        with tf1.Session() as sess:
            sess.run(tf1.local_variables_initializer())
            coord = tf1.train.Coordinator()
            threads = tf1.train.start_queue_runners(sess, coord)
            try:
                while True:
                    out.append(sess.run(batch))
            except tf.errors.OutOfRangeError:
                pass
            coord.request_stop()
            coord.join(threads)
    return out


def dataset_batches(bucketed: bool) -> list[np.ndarray]:
    """Batches from tf.data: padded_batch alone, or bucket_by_sequence_length."""
    with tf.Graph().as_default():
        data = tf.data.Dataset.from_generator(lambda: iter(sentences),
                                              output_signature=tf.TensorSpec([None], tf.int64))
        if bucketed:
            data = data.bucket_by_sequence_length(lambda s: tf.shape(s)[0], BOUNDARIES,
                                                  [SENTENCE_BATCH] * (len(BOUNDARIES) + 1))
        else:
            data = data.padded_batch(SENTENCE_BATCH)
        batch = tf1.data.make_one_shot_iterator(data).get_next()
        out = []
        with tf1.Session() as sess:
            try:
                while True:
                    out.append(sess.run(batch))
            except tf.errors.OutOfRangeError:
                pass
    return out


def padding_share(batches: list[np.ndarray]) -> float:
    cells = sum(b.size for b in batches)
    return 1 - sum(int((b != 0).sum()) for b in batches) / cells


BUCKETING = {"tf.data padded_batch, no buckets": dataset_batches(False),
             "queue bucket_by_sequence_length": queue_buckets(),
             "tf.data bucket_by_sequence_length": dataset_batches(True)}
words_in = sorted(tuple(s) for s in sentences)
rows = []
for name, batches in BUCKETING.items():
    words_out = sorted(tuple(r[r != 0]) for b in batches for r in b)
    rows.append(f"| {name} | {len(batches)} | {padding_share(batches):.0%} | {words_out == words_in} |")
display(Markdown("| input | batches | padding | every sentence once |\n|---|---|---|---|\n" + "\n".join(rows)))

# %% [markdown]
# **Reading.** Without buckets a batch is padded to its longest sentence, so with lengths spread
# over 1–20 words about half of every batch is padding. Both bucketing recipes keep the lengths
# of a batch within one bucket (here 1–5, 6–10, 11–15, 16+ words) and pad far less, and both
# deliver every sentence once: the queue version hands over each bucket's last, smaller batch at
# the end of the epoch (`allow_smaller_final_batch=True`; TensorFlow 1.15 itself lost those, see
# docs/divergences.md), as tf.data does by default.

# %% [markdown]
# ## Summary

# %%
display(Markdown(
    "| question | measured answer |\n|---|---|\n"
    f"| same data? | every input delivered each of the {NUM_RECORDS} records exactly once per "
    f"epoch: {all(np.array_equal(np.sort(e), IDS) for e in epochs.values())} |\n"
    f"| fastest input (used in the graph) | {fastest}: "
    + ", ".join(f"{k} {graph_rates[k].per_s:,.0f}/s" for k in INPUTS) + " |\n"
    f"| queue vs tf.data | ×{data_r / queue_r:.2f} on the same records and parsing |\n"
    f"| queue fill | fast consumer {mean_fill[fast]:.0%}, slow consumer {mean_fill[slow]:.0%} "
    f"above `min_after_dequeue` |\n"
    f"| `min_after_dequeue` {low} → {high} | displacement {disp[fast_case, low]:.1f} → "
    f"{disp[fast_case, high]:.0f} (fast consumer), {disp[slow_case, low]:.1f} → "
    f"{disp[slow_case, high]:.0f} (slow); tf.data {disp[data_case, low]:.1f} → "
    f"{disp[data_case, high]:.0f}; first batch {first_batch_s[low]:.2f} → "
    f"{first_batch_s[high]:.2f} s |"))

# %%
shutil.rmtree(WORK)
