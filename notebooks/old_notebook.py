# %% [markdown]
# # An old notebook, cell by cell, today and under the `tf1-compat` kernel
#
# Courses of 2016-2018 taught TensorFlow 1 in notebooks: placeholders fed through `feed_dict`,
# `tf.Session`, `initialize_all_variables`, the first `tf.data` iterators, and often Python 2
# (`print x`, `xrange`, `7 / 2 == 3`). Opened in today's Jupyter with the ordinary Python 3
# kernel, such a notebook stops at almost every cell. Picking the kernel "Python 3 (TensorFlow 1
# compat)" (`python -m compat kernel install`, or `make lab`) runs it unchanged; so does
# `python -m compat run OLD.ipynb` without a front end.
#
# Below, a small old-style notebook is built in memory and executed twice, each time in a fresh
# kernel on this interpreter: once in the ordinary `python3` kernel (TensorFlow 2 as it is), once
# in `tf1-compat`. The table puts each cell next to both outputs.

# %%
import html
from pathlib import Path

import nbformat
from ipykernel.kernelspec import RESOURCES, get_kernel_dict
from IPython.display import HTML, display
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook
from traitlets import default

from compat.notebook import execute

# %% [markdown]
# ## The old notebook
#
# Five cells as a 2017 tutorial had them: imports (valid Python 3), a graph with a
# placeholder, a session run with `feed_dict`, a one-shot `tf.data` iterator, and Python 2 prints.

# %%
OLD_CELLS = [
    "import numpy as np\nimport tensorflow as tf\ntf.logging.set_verbosity(tf.logging.ERROR)\nprint(np.float(3) / 2)",
    "x = tf.placeholder(tf.float32, shape=[None, 3])\nw = tf.Variable(tf.ones([3, 1]))\ny = tf.matmul(x, w)",
    "sess = tf.Session()\nsess.run(tf.initialize_all_variables())\nprint sess.run(y, feed_dict={x: [[1, 2, 3]]})",
    "dataset = tf.data.Dataset.range(5).map(lambda i: i * 2)\nnext_element = dataset.make_one_shot_iterator()"
    ".get_next()\nprint [sess.run(next_element) for _ in xrange(5)]",
    "print 'half of 7 is', 7 / 2",
]
old = new_notebook(cells=[new_code_cell(source) for source in OLD_CELLS])
for number, source in enumerate(OLD_CELLS, start=1):
    print(f"--- cell {number}\n{source}")


# %%
class _ThisInterpreterSpecs(KernelSpecManager):
    """``python3`` is ipykernel on this interpreter, whatever else is installed."""

    def get_kernel_spec(self, kernel_name):
        if kernel_name == "python3":
            return self.kernel_spec_class(resource_dir=RESOURCES, **get_kernel_dict())
        return super().get_kernel_spec(kernel_name)


class _ThisInterpreterKernels(AsyncKernelManager):
    @default("kernel_spec_manager")
    def _kernel_spec_manager_default(self):
        return _ThisInterpreterSpecs(data_dir=self.data_dir)


def output_text(cell):
    """A cell's outputs as text: streams, results, and ``Name: message`` for an error."""
    parts = []
    for output in cell.get("outputs", []):
        if output.output_type == "stream" and output.name == "stdout":
            parts.append(output.text)
        elif output.output_type in ("execute_result", "display_data"):
            parts.append(output.data.get("text/plain", ""))
        elif output.output_type == "error":
            parts.append(f"{output.ename}: {output.evalue}")
    return "".join(parts).strip() or "(no output)"


today = nbformat.from_dict(nbformat.v4.new_notebook(cells=[new_code_cell(s) for s in OLD_CELLS]))
NotebookClient(today, kernel_name="python3", kernel_manager_class=_ThisInterpreterKernels, allow_errors=True,
               timeout=300, extra_arguments=["--IPKernelApp.capture_fd_output=False"]).execute()
failure = execute.execute_notebook(old, Path.cwd(), timeout=300)
print("tf1-compat:", "every cell ran" if failure is None else f"{failure.describe()} raised {failure.ename}")

# %% [markdown]
# ## Side by side

# %%
rows = "".join(
    f"<tr><td>{number}</td><td><pre>{html.escape(source)}</pre></td>"
    f"<td><pre>{html.escape(output_text(now))}</pre></td><td><pre>{html.escape(output_text(then))}</pre></td></tr>"
    for number, (source, now, then) in enumerate(zip(OLD_CELLS, today.cells, old.cells), start=1))
display(HTML("<table><tr><th>cell</th><th>source (2017)</th><th>Python 3 kernel, TensorFlow 2</th>"
             f"<th>tf1-compat kernel</th></tr>{rows}</table>"))

# %% [markdown]
# In today's kernel the first cell fails (`tf.logging` is gone from TensorFlow 2, and `np.float`
# from NumPy 1.24), the second on `tf.placeholder`, and the Python 2 cells do not even parse.
# Under `tf1-compat` every cell runs:
# `np.float` is rewritten, `tf` is the TensorFlow 1 namespace (graph mode, `tf.placeholder`,
# `tf.Session`, `make_one_shot_iterator`), and the Python 2 cells are translated one by one, keeping
# Python 2's integer division (`7 / 2` is 3).
