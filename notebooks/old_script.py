# %% [markdown]
# # Running an old script
#
# A script written for TensorFlow 1.4, NumPy 1.13 and SciPy 1.0 (2017) stops at its first legacy
# call on today's stack. `python -m compat run SCRIPT ARGS…` runs it unchanged: `import tensorflow
# as tf` gives the script the TF1 namespace (`tf.compat.v1` + `tf.contrib.data` + renamed ops),
# `scipy.misc` comes back with SciPy 1.2's semantics, and `x.tostring()`, `np.fromstring`,
# `np.float`, `xrange`, `d.iteritems()` are rewritten in the script's own files.
# `python -m compat check SCRIPT` lists every such construct without running anything.
#
# Here a small 2017-style script (with a local module) is written into a temporary folder with a
# few of the photographs bundled with scikit-image, and run three ways, each in its own process.
# Paths in the outputs are shown relative to that folder.

# %%
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import matplotlib.pyplot as plt
import numpy as np
import PIL.Image
import scipy
import tensorflow as tf
from IPython.display import Markdown, display

from tf1_pipelines.data import sample_data

tf.get_logger().setLevel("ERROR")

SMALL = os.environ.get("TF1P_NOTEBOOK_SMALL") == "1"
PHOTOS = ("astronaut", "coffee", "chelsea", "rocket") if SMALL else \
    ("astronaut", "coffee", "chelsea", "rocket", "motorcycle_left", "immunohistochemistry")
print(f"today's stack: TensorFlow {tf.__version__}, NumPy {np.__version__}, SciPy "
      f"{scipy.__version__}, Python {sys.version.split()[0]}; {'small' if SMALL else 'full'} run")

# %% [markdown]
# ## The script
#
# `make_and_read.py` writes a folder of images into a TFRecord file, checks the round trip in
# numpy, then reads the file back twice: with a filename queue and `tf.train.shuffle_batch`, and
# with `tf.contrib.data`. Its helpers live in `utils.py` next to it.

# %%
UTILS = '''\
# utils.py -- image helpers (2017)
import numpy as np
from scipy import misc


def load_image(path, size):
    """Read an image file and resize it to size x size (bicubic)."""
    img = misc.imread(path, mode='RGB')
    return misc.imresize(img, (size, size), interp='bicubic')


def to_bytes(img):
    return img.tostring()


def from_bytes(raw, shape):
    return np.fromstring(raw, dtype=np.uint8).reshape(shape)
'''

SCRIPT = '''\
# make_and_read.py -- write a folder of images to a TFRecord file, then read it back
# with a filename queue and with tf.contrib.data (TensorFlow 1.4, NumPy 1.13, SciPy 1.0).
from __future__ import print_function
import os
import sys

import numpy as np
import tensorflow as tf

import utils

SIZE = 64
BATCH = 4
image_dir = sys.argv[1]
record_file = 'images.tfrecords'

# 1. write
names = sorted(os.listdir(image_dir))
originals = {}
writer = tf.python_io.TFRecordWriter(record_file)
for i in xrange(len(names)):
    img = utils.load_image(os.path.join(image_dir, names[i]), SIZE)
    originals[names[i]] = img
    example = tf.train.Example(features=tf.train.Features(feature={
        'name': tf.train.Feature(bytes_list=tf.train.BytesList(value=[names[i].encode()])),
        'image_raw': tf.train.Feature(bytes_list=tf.train.BytesList(value=[utils.to_bytes(img)]))}))
    writer.write(example.SerializeToString())
writer.close()
print('wrote %d images to %s' % (len(names), record_file))

# 2. check the round trip in numpy
same = True
for record in tf.python_io.tf_record_iterator(record_file):
    example = tf.train.Example()
    example.ParseFromString(record)
    name = example.features.feature['name'].bytes_list.value[0].decode()
    raw = example.features.feature['image_raw'].bytes_list.value[0]
    same = same and np.array_equal(utils.from_bytes(raw, (SIZE, SIZE, 3)), originals[name])
print('round trip identical:', same)


def parse(serialized):
    features = tf.parse_single_example(serialized, features={
        'name': tf.FixedLenFeature([], tf.string),
        'image_raw': tf.FixedLenFeature([], tf.string)})
    image = tf.reshape(tf.decode_raw(features['image_raw'], tf.uint8), tf.pack([SIZE, SIZE, 3]))
    return features['name'], tf.to_float(image) / 255.0

# 3. read with a filename queue and shuffle_batch
filename_queue = tf.train.string_input_producer([record_file], num_epochs=2)
reader = tf.TFRecordReader()
_, serialized = reader.read(filename_queue)
name, image = parse(serialized)
names_q, images_q = tf.train.shuffle_batch([name, image], batch_size=BATCH, capacity=20,
                                           min_after_dequeue=8, num_threads=2)

# 4. read with tf.contrib.data
dataset = tf.contrib.data.TFRecordDataset([record_file]).map(parse)
dataset = dataset.apply(tf.contrib.data.shuffle_and_repeat(len(names))).batch(BATCH)
names_d, images_d = dataset.make_one_shot_iterator().get_next()

stats = {}
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    for step in xrange(2):
        n, x = sess.run([names_q, images_q])
        stats['queue %d' % step] = (x.shape, np.float(x.mean()))
        n, x = sess.run([names_d, images_d])
        stats['dataset %d' % step] = (x.shape, np.float(x.mean()))
    coord.request_stop()
    coord.join(threads)

for key, (shape, mean) in sorted(stats.iteritems()):
    print('%-10s batch %s mean %.3f' % (key, shape, mean))
'''

WORK = tempfile.mkdtemp(prefix="old_script_")
for name, text in (("utils.py", UTILS), ("make_and_read.py", SCRIPT)):
    with open(os.path.join(WORK, name), "w", encoding="utf-8") as handle:
        handle.write(text)
os.makedirs(os.path.join(WORK, "photos"))
for number, name in enumerate(PHOTOS):
    PIL.Image.fromarray(sample_data.load_photograph(name)).save(
        os.path.join(WORK, "photos", f"{number:02d}_{name}.jpg"), quality=90)
numbered = "\n".join(f"{k:3d}  {line}" for k, line in enumerate(SCRIPT.splitlines(), start=1))
display(Markdown(f"`make_and_read.py`, with line numbers:\n\n```\n{numbered}\n```"))
print(f"photos/: {', '.join(sorted(os.listdir(os.path.join(WORK, 'photos'))))}")

# %% [markdown]
# Every run is a subprocess in the temporary folder. TensorFlow's C++ start-up lines (absl log
# lines such as `I0000 … oneDNN custom operations are on`) are dropped from what is shown, and
# absolute paths are shortened.

# %%
ABSL_LINE = re.compile(r"^([IWEF]\d{4} |WARNING: All log messages before absl)")


def shorten(text):
    """Paths relative to the temporary folder; installed packages as …/site-packages/…;
    any other absolute path as …/folder/file."""
    text = text.replace(WORK + os.sep, "").replace(WORK, ".")
    text = re.sub(r"(?:/[^\s\"':]+)+/(site-packages|lib/python3\.\d+)/", r"…/\1/", text)
    return re.sub(r"(?<![\w.…])/(?:[^\s\"':/]+/)+([^\s\"':/]+/[^\s\"':/]+)", r"…/\1", text)


class Run(collections.namedtuple("Run", "status stdout stderr seconds")):
    """A finished subprocess: exit status, its outputs (cleaned), wall time."""


def run(*args):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *args], cwd=WORK, env=env, capture_output=True,
                          text=True, timeout=300)
    stderr = "\n".join(line for line in done.stderr.splitlines() if not ABSL_LINE.match(line))
    return Run(done.returncode, shorten(done.stdout), shorten(stderr),
               time.perf_counter() - start)


def last_lines(text, count):
    return "\n".join(text.strip().splitlines()[-count:])


# %% [markdown]
# ## 1. Plain `python`: it fails

# %%
plain = run("make_and_read.py", "photos")
print(f"$ python make_and_read.py photos\nexit status {plain.status} after {plain.seconds:.1f} s; "
      f"stdout: {plain.stdout.strip() or '(nothing)'}\nlast lines of stderr:\n")
print(last_lines(plain.stderr, 5))

# %% [markdown]
# ## 2. `python -m compat run`: it runs, unchanged

# %%
compat_run = run("-m", "compat", "run", "make_and_read.py", "photos")
print(f"$ python -m compat run make_and_read.py photos\nexit status {compat_run.status} after "
      f"{compat_run.seconds:.1f} s; stdout:\n")
print(compat_run.stdout)
DEPRECATION = re.compile(r"^WARNING:tensorflow:From (\S+?):(\d+): (\S+) \(from (\S+)\) is deprecated")
deprecations = [m.groups() for m in map(DEPRECATION.match, compat_run.stderr.splitlines()) if m]
own = [d for d in deprecations if not d[0].startswith("…")]  # the script's lines
written = os.path.join(WORK, "images.tfrecords")
records = sum(1 for _ in tf.compat.v1.io.tf_record_iterator(written))
display(Markdown(
    f"The script wrote `images.tfrecords` ({os.path.getsize(written) / 1e3:,.0f} kB, {records} "
    f"records for {len(PHOTOS)} photographs). On stderr TensorFlow warns about deprecated TF1 "
    f"calls: {len(own)} in the script, {len(deprecations) - len(own)} more from inside "
    f"TensorFlow. Warnings, not errors; the script's:\n\n"
    "| file:line | deprecated call | module |\n|---|---|---|\n"
    + "\n".join(f"| {f}:{line} | `{call}` | `{module}` |" for f, line, call, module in own)))

# %% [markdown]
# ## 3. `python -m compat check`: what the runner does, line by line
#
# The report, parsed into a table (the script and its local module are parsed, not run).

# %%
check = run("-m", "compat", "check", "make_and_read.py")
FINDING = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): (?P<status>[\w.]+): "
                     r"(?P<construct>.+?) -> (?P<action>.+)$")
findings = [m.groupdict() for m in map(FINDING.match, check.stdout.splitlines()) if m]
summary = [line for line in check.stdout.splitlines() if line and not FINDING.match(line)]
display(Markdown(
    f"`python -m compat check make_and_read.py`: exit status {check.status}; "
    f"{summary[0]}\n\n"
    "| file | line | status | construct | what the runner does |\n|---|---|---|---|---|\n"
    + "\n".join(f"| {f['file']} | {f['line']} | {f['status']} | `{f['construct']}` | "
                f"{f['action'].replace('|', '/')} |" for f in findings)
    + "\n\n" + "\n\n".join(f"*{line}*" for line in summary[1:])))

STATUSES = ("rewritten", "bridged", "compat.v1", "unsupported")
files = sorted({f["file"] for f in findings}, reverse=True)
counts = {(f, s): sum(1 for x in findings if x["file"] == f and x["status"] == s)
          for f in files for s in STATUSES}
fig, ax = plt.subplots(figsize=(8, 1.2 + 0.5 * len(files)))
left = np.zeros(len(files))
for status, colour in zip(STATUSES, ("C0", "C2", "C7", "C3")):
    values = np.array([counts[f, status] for f in files])
    bars = ax.barh(files, values, left=left, color=colour, label=status)
    ax.bar_label(bars, labels=[str(v) if v else "" for v in values], label_type="center",
                 fontsize=8)
    left += values
ax.set_xlabel("legacy constructs")
ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
ax.set_title("compat check: constructs per file and status", fontsize=10)
plt.tight_layout()
plt.show()

# %% [markdown]
# ## 4. What the runner cannot handle
#
# The same script with one more 2017 habit, `slim = tf.contrib.slim` (TF-Slim left TensorFlow
# with `tf.contrib`). `check` reports it as unsupported (exit status 1) and names the
# replacement; `run` fails with the same advice instead of a bare `AttributeError`.

# %%
with open(os.path.join(WORK, "with_slim.py"), "w", encoding="utf-8") as handle:
    handle.write(SCRIPT.replace("import utils\n", "import utils\n\nslim = tf.contrib.slim\n"))
slim_check = run("-m", "compat", "check", "with_slim.py")
slim_run = run("-m", "compat", "run", "with_slim.py", "photos")
unsupported = [m.groupdict() for m in map(FINDING.match, slim_check.stdout.splitlines())
               if m and m["status"] == "unsupported"]
display(Markdown(
    f"`check`: exit status {slim_check.status}\n\n"
    "| file | line | construct | what to use |\n|---|---|---|---|\n"
    + "\n".join(f"| {f['file']} | {f['line']} | `{f['construct']}` | {f['action']} |"
                for f in unsupported)))
print(f"$ python -m compat run with_slim.py photos\nexit status {slim_run.status}; last lines "
      f"of stderr:\n")
print(last_lines(slim_run.stderr, 2))

# %% [markdown]
# ## Summary

# %%
by_status = collections.Counter(f["status"] for f in findings)
stopped = re.findall(r'File "make_and_read.py", line (\d+)', plain.stderr)
display(Markdown(
    "| run | exit status | seconds | result |\n|---|---|---|---|\n"
    f"| `python make_and_read.py photos` | {plain.status} | {plain.seconds:.1f} | "
    f"stops at line {stopped[-1] if stopped else '?'}, the first call today's stack lacks "
    f"(check lists {len(findings)} legacy constructs): `{last_lines(plain.stderr, 1)}` |\n"
    f"| `python -m compat run make_and_read.py photos` | {compat_run.status} | "
    f"{compat_run.seconds:.1f} | {len(compat_run.stdout.splitlines())} lines of output, "
    f"{records} records written |\n"
    f"| `python -m compat check make_and_read.py` | {check.status} | {check.seconds:.1f} | "
    f"{len(findings)} constructs in {len(files)} files: "
    + ", ".join(f"{by_status[s]} {s}" for s in STATUSES) + " |\n"
    f"| `python -m compat check with_slim.py` | {slim_check.status} | {slim_check.seconds:.1f} | "
    f"{len(unsupported)} unsupported: `{unsupported[0]['construct'] if unsupported else '-'}` |"))

# %%
shutil.rmtree(WORK)
