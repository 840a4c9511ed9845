# %% [markdown]
# # Resume mid-epoch, repeat with a seed
#
# Two promises a training run wants from its input pipeline:
#
# * **same seed, same batches** — two runs with `seed=N` see the identical sequence of
#   batches, shuffles, crops and flips included, in any process;
# * **resume where it stopped** — a run killed mid-epoch and restarted from a checkpoint sees
#   exactly the batches it would have seen without the interruption.
#
# Both hold for the `dataset` (tf.data) backends: with a seed, every random draw is
# *stateless* and keyed by the element's position in the stream, and the iterator's position
# (shuffle buffer, epoch counter, element counter) is saved by `p.save_state(path)` — or by
# your own `tf.compat.v1.train.Saver`. This notebook kills a training loop, resumes it in a new
# process, and compares the record ids it was served with an uninterrupted run's; then it
# shows what the queue backends can and cannot promise. Every run below is a fresh Python
# process, as a real restart is.

# %%
import json
import os
import subprocess
import sys
import tempfile
import textwrap

import matplotlib.pyplot as plt
import numpy as np

SMALL = os.environ.get("TF1P_NOTEBOOK_SMALL") == "1"
RECORDS = 40 if SMALL else 200     # record ids 0..RECORDS-1
BATCH = 8
STEPS = 12 if SMALL else 60        # training steps of the whole run
KILL_AFTER = 7 if SMALL else 37    # the step after which the first run dies (mid-epoch)
WORK = tempfile.mkdtemp(prefix="resume_and_repeat_")
print(f"{RECORDS} records, batches of {BATCH} ({RECORDS // BATCH} an epoch), {STEPS} steps; "
      f"killed after step {KILL_AFTER}")

# %% [markdown]
# ## The training loop
#
# A stand-in for a training script: the `constant` pipeline over one array of record ids,
# reshuffled every epoch, `seed=` given. After every step it saves the input position next to
# where a model checkpoint would go (`save_state` writes a folder atomically: a crash while
# saving leaves the previous state intact). With `--resume` it restores that position first.
# With `--die-after K` it kills itself with SIGKILL right after step K — no cleanup, no
# `finally`, as a machine losing power.

# %%
TRAIN = os.path.join(WORK, "train.py")
with open(TRAIN, "w") as f:
    f.write(textwrap.dedent(f"""
        import argparse, json, os, signal
        import numpy as np
        import tf1_pipelines as tp

        parser = argparse.ArgumentParser()
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--steps", type=int, default={STEPS})
        parser.add_argument("--state", default=None)
        parser.add_argument("--resume", action="store_true")
        parser.add_argument("--die-after", type=int, default=None)
        args = parser.parse_args()

        ids = {{"record_id": np.arange({RECORDS})}}
        with tp.load_pipeline("constant", arrays=ids, batch_size={BATCH}, num_epochs=None,
                              seed=args.seed) as p:
            step = 0
            if args.resume:
                with open(os.path.join(args.state, "step.json")) as f:
                    step = json.load(f)
                p.restore_state(os.path.join(args.state, "input"))
            while step < args.steps:
                batch = p.get_batch()
                step += 1
                print(json.dumps([step, batch.record_id.tolist()]), flush=True)
                if args.state:
                    p.save_state(os.path.join(args.state, "input"))
                    with open(os.path.join(args.state, "step.json"), "w") as f:
                        json.dump(step, f)
                if step == args.die_after:
                    os.kill(os.getpid(), signal.SIGKILL)
        """))


def train(*args):
    """Run the loop in a fresh process: (return code, {step: record ids})."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="-1")
    done = subprocess.run([sys.executable, TRAIN, *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=300)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("[")]
    return done.returncode, {step: ids for step, ids in lines}


# %% [markdown]
# ## Killed at step K, resumed in a new process
#
# Three processes: one uninterrupted run; one that dies after step `KILL_AFTER` (return code
# −9: SIGKILL); one that restores the saved position and runs to the end.

# %%
code_full, full = train("--seed", 1)
print(f"uninterrupted: return code {code_full}, {len(full)} steps")

# %%
STATE = os.path.join(WORK, "run_state")
code_killed, before = train("--seed", 1, "--state", STATE, "--die-after", KILL_AFTER)
code_resumed, after = train("--seed", 1, "--state", STATE, "--resume")
print(f"killed:        return code {code_killed}, {len(before)} steps")
print(f"resumed:       return code {code_resumed}, steps {min(after)}..{max(after)}")
spliced = {**before, **after}
same = [full[s] == spliced[s] for s in sorted(full)]
print(f"killed + resumed equals uninterrupted, step by step: {all(same)} "
      f"({sum(same)} of {len(same)} steps)")
assert all(same) and sorted(spliced) == sorted(full)

# %% [markdown]
# Every dot is one record served at one step. Grey: the uninterrupted run. Blue: the run that
# died; orange: the resumed run. The resumed dots land exactly on the grey ones — the rest of
# the interrupted epoch (the shuffle buffer held it), then the next epochs' new orders.

# %%
fig, ax = plt.subplots(figsize=(10, 3.6))
for steps, colour, size, label in ((full, "0.75", 60, "uninterrupted"),
                                   (before, "tab:blue", 14, "before the kill"),
                                   (after, "tab:orange", 14, "after the resume")):
    xs = [s for s in steps for _ in steps[s]]
    ys = [i for s in steps for i in steps[s]]
    ax.scatter(xs, ys, s=size, c=colour, label=label)
for epoch_end in range(RECORDS // BATCH, STEPS, RECORDS // BATCH):
    ax.axvline(epoch_end + 0.5, color="0.85", lw=1, zorder=0)
ax.axvline(KILL_AFTER + 0.5, color="tab:red", ls="--", lw=1.5, label="killed")
ax.set_xlabel("training step")
ax.set_ylabel("record id")
ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
ax.set_title("record ids served: killed and resumed vs uninterrupted")
plt.tight_layout()
plt.show()

# %% [markdown]
# ## The same seed in two processes
#
# The uninterrupted run and the run that was killed are two processes with `seed=1`: up to the
# kill they were served the same batches. One more process with `seed=2` gets another order.
# (The test suite checks this for every dataset-backed pipeline: parallel maps, shuffles,
# random crops and flips.)

# %%
_, other = train("--seed", 2, "--steps", KILL_AFTER)
print("seed 1, two processes, same batches:", all(before[s] == full[s] for s in before))
print("seed 2 equals seed 1:               ", other == before)
print("first batch, seed 1:", full[1])
print("first batch, seed 2:", other[1])
assert all(before[s] == full[s] for s in before) and other != before

# %% [markdown]
# ## Your own `Saver` captures the position too
#
# Building a pipeline puts its iterator's saveable into the graph's `SAVEABLE_OBJECTS`, so a
# `tf.compat.v1.train.Saver()` built afterwards saves the input position with the model. On
# restore, call `p.initialize(sess)` *before* `saver.restore(...)`: otherwise the first
# `get_batch` would initialize the iterator and throw the restored position away.

# %%
import tensorflow as tf  # noqa: E402

import tf1_pipelines as tp  # noqa: E402

tf1 = tf.compat.v1
tf.get_logger().setLevel("ERROR")
IDS = {"record_id": np.arange(RECORDS)}


def session_with_pipeline():
    graph = tf.Graph()
    p = tp.load_pipeline("constant", arrays=IDS, batch_size=BATCH, num_epochs=None, seed=1,
                         graph=graph)
    with graph.as_default():
        tf1.train.get_or_create_global_step()
        _ = p.tensors
        saver = tf1.train.Saver()
        init = tf1.global_variables_initializer()
    return graph, p, saver, init, tf1.Session(graph=graph)


graph, p, saver, init, sess = session_with_pipeline()
sess.run(init)
for _ in range(3):
    p.get_batch(sess)
with graph.as_default():
    prefix = saver.save(sess, os.path.join(WORK, "model"))
expected = p.get_batch(sess).record_id
p.close()
sess.close()

graph, p, saver, init, sess = session_with_pipeline()
p.initialize(sess)
with graph.as_default():
    saver.restore(sess, prefix)
got = p.get_batch(sess).record_id
print("4th batch after saver.restore:", got.tolist(), "equal:", np.array_equal(got, expected))
p.close()
sess.close()

# %% [markdown]
# ## What the queue backends can and cannot promise
#
# The `queue` backends (`voc_segmentation`, `inception_multilabel`) are the seeds' TF1 graphs:
# reader threads fill a `RandomShuffleQueue`, preprocessing threads dequeue from it.
#
# * **Deterministic with `seed=`:** the order of the file names (`string_input_producer`'s
#   shuffle) and each random op's sequence of draws.
# * **Not deterministic:** which record a thread reads next, which thread's draws go to which
#   record, and how many examples the shuffle queue holds when each one is drawn — all
#   decided by thread timing. So two runs with one seed give the same multiset of records
#   per epoch but not the same batches.
# * **The closest honest option:** `voc_segmentation`'s `deterministic=True` reads with one
#   thread into a shuffle queue of `min_after_dequeue + 1`, so that every draw is from a full
#   queue: the same batches in every run, at the cost of the second reader thread. Inception's
#   queue backend has none: its 16 threads are what pick each record's distortions.
# * **No resume mid-epoch:** the queues live in the session and are filled by threads; TF
#   cannot save their contents. `save_state` refuses, naming the `dataset` backend, which
#   serves the same examples per epoch and keeps both promises.

# %%
def queue_batches(seed: int) -> list[list[int]]:
    """The top-left red value of each image of four batches of a deterministic queue
    pipeline (enough to tell the batches apart)."""
    with tp.load_pipeline("voc_segmentation", backend="queue", seed=seed,
                          deterministic=True) as queue:
        return [queue.get_batch().image[:, 0, 0, 0].tolist() for _ in range(4)]


print("deterministic queue, seed 1, twice:", queue_batches(1) == queue_batches(1))

# %%
with tp.load_pipeline("voc_segmentation", backend="queue", seed=1) as q:
    try:
        q.save_state(os.path.join(WORK, "queue_state"))
    except tp.ConfigError as error:
        print("ConfigError:", error)
