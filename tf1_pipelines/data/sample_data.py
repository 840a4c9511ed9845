"""The embedded default data: real photographs that ship inside scikit-image.

No network is needed: the scikit-image wheel bundles a few photographs under
``skimage/data/``. They are read from there as files (no scikit-image code
runs) and written out as small folders shaped like the data sets the seeds
used, e.g. a DIV2K-like folder of numbered PNGs.

Folders made for a pipeline's default live under ``$TF1_PIPELINES_DATA`` (or
``~/.cache/tf1_pipelines``); each is built in a temporary folder and renamed
into place when complete, so an interrupted build leaves nothing half-written.
"""
from __future__ import annotations

import importlib.resources
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence

import imageio.v3 as iio
import numpy as np

#: RGB photographs bundled with scikit-image: name -> file in skimage/data.
PHOTOGRAPHS: dict[str, str] = {
    "astronaut": "astronaut.png",              # 512 x 512
    "coffee": "coffee.png",                    # 400 x 600
    "chelsea": "chelsea.png",                  # 300 x 451
    "rocket": "rocket.jpg",                    # 427 x 640
    "immunohistochemistry": "ihc.png",         # 512 x 512
    "motorcycle_left": "motorcycle_left.png",  # 500 x 741
    "motorcycle_right": "motorcycle_right.png",  # 500 x 741
    "hubble_deep_field": "hubble_deep_field.jpg",  # 872 x 1000
    "retina": "retina.jpg",                    # 1411 x 1411
    "color": "color.png",                      # 370 x 371
}

#: The photographs of the DIV2K-like set, in file order 0001.png, 0002.png, ...
DIV2K_LIKE: tuple[str, ...] = ("astronaut", "coffee", "chelsea", "rocket", "immunohistochemistry",
                               "motorcycle_left", "motorcycle_right", "hubble_deep_field")


def photograph_path(name: str) -> str:
    """Path of a bundled photograph file."""
    if name not in PHOTOGRAPHS:
        raise ValueError(f"unknown photograph {name!r}; bundled: {', '.join(PHOTOGRAPHS)}")
    path = importlib.resources.files("skimage.data") / PHOTOGRAPHS[name]
    return str(path)  # a file of the installed skimage package: a plain path


def load_photograph(name: str) -> np.ndarray:
    """A bundled photograph as uint8 [H, W, 3] RGB, values 0..255."""
    image = np.asarray(iio.imread(photograph_path(name)))
    return image[..., :3]


#: The file that marks a folder as a data home this project made (or adopted empty).
HOME_MARKER = ".tf1_pipelines-data-home"
#: The file that marks a ``.partial-*`` folder as one :func:`build_folder_atomically` made.
PARTIAL_MARKER = ".tf1_pipelines-partial"


class DataHomeError(ValueError):
    """``TF1_PIPELINES_DATA`` names something that cannot be the data home: a file,
    or a folder that holds files and that this project did not make. (Not a
    ConfigError: the ``cache`` command must not load TensorFlow.)"""


def default_data_home() -> str:
    """``~/.cache/tf1_pipelines``: the data home when ``TF1_PIPELINES_DATA`` is unset or empty."""
    return os.path.join(os.path.expanduser("~"), ".cache", "tf1_pipelines")


def data_home(create: bool = True) -> str:
    """Where default data folders are built: ``$TF1_PIPELINES_DATA`` (set but empty
    counts as unset) or ``~/.cache/tf1_pipelines``, as an absolute path.

    The folder is made (and marked with :data:`HOME_MARKER`) on first use; an
    existing empty folder is adopted the same way, and so is the default location,
    which only this project names, and a folder that holds nothing but entries of
    the cache's own names (a data home of an earlier version, made before the
    marker). DataHomeError when the path is a file, or a folder that holds other
    files and no marker (the current directory given by
    mistake, a folder of the user's): ``cache clear`` must never work in such a place.
    ``create=False`` returns the path without making or marking anything.
    """
    value = os.environ.get("TF1_PIPELINES_DATA", "").strip()
    home = os.path.abspath(os.path.expanduser(value)) if value else default_data_home()
    if not create:
        return home
    if os.path.lexists(home) and not os.path.isdir(home):
        raise DataHomeError(f"TF1_PIPELINES_DATA names {home!r}, which is not a folder; name a "
                            "new or empty folder for the data this project builds")
    marker = os.path.join(home, HOME_MARKER)
    if os.path.isfile(marker):
        return home
    if os.path.isdir(home) and value and not _only_cache_entries(home):
        raise DataHomeError(
            f"TF1_PIPELINES_DATA names {home!r}, a folder that holds files and that this project "
            f"did not make (no {HOME_MARKER} in it); name a new or empty folder, or unset it "
            f"for {default_data_home()!r}")
    os.makedirs(home, exist_ok=True)
    with open(marker, "a", encoding="utf-8"):
        pass
    return home


def _only_cache_entries(home: str) -> bool:
    """True if every entry of ``home`` is a folder of the cache's names (the
    pipelines' data sets and record caches, ``.partial-*`` builds)."""
    from tf1_pipelines.registry import cache_folders  # reads the packages' declarations

    data_sets, record_caches = cache_folders()
    names = set(data_sets) | set(record_caches)
    for name in os.listdir(home):
        path = os.path.join(home, name)
        if os.path.islink(path) or not os.path.isdir(path):
            return False
        if name not in names and not name.startswith(".partial-"):
            return False
    return True


def build_folder_atomically(dest: str, fill: Callable[[str], object]) -> str:
    """Call ``fill(tmp_dir)`` and rename ``tmp_dir`` to ``dest``; no-op if ``dest`` exists.

    The temporary folder (``.partial-*``) carries :data:`PARTIAL_MARKER` from its
    creation, and the finished folder a manifest of every file ``fill`` wrote
    (:func:`tf1_pipelines.records.manifest.record_tree`), so ``cache clear``
    removes exactly these files. A full disk is an OSError (ENOSPC) of one line
    naming the folder and what was written; nothing of the build stays."""
    from tf1_pipelines.records.disk_full import disk_full, is_disk_full  # no TensorFlow
    from tf1_pipelines.records.manifest import record_tree

    if os.path.isdir(dest):
        return dest
    parent = os.path.dirname(os.path.abspath(dest))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".partial-", dir=parent)
    try:
        with open(os.path.join(tmp, PARTIAL_MARKER), "w", encoding="utf-8"):
            pass
        fill(tmp)
        os.remove(os.path.join(tmp, PARTIAL_MARKER))
        record_tree(tmp)
        os.replace(tmp, dest)
    except OSError as exc:
        if os.path.isdir(dest):  # lost a race with another process: theirs is complete
            return dest
        if is_disk_full(exc):
            raise disk_full(parent, _bytes_under(tmp), exc) from exc
        raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest


def _bytes_under(folder: str) -> int:
    """Bytes of the regular files under ``folder`` (what a failed build had written)."""
    total = 0
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            if os.path.isfile(path) and not os.path.islink(path):
                total += os.path.getsize(path)
    return total


def write_div2k_like(dest: str, names: Sequence[str] = DIV2K_LIKE) -> list[str]:
    """Write the photographs as ``0001.png``, ``0002.png``, ... (RGB) into ``dest``.

    Returns the sorted PNG paths.
    """
    os.makedirs(dest, exist_ok=True)
    paths = []
    for index, name in enumerate(names, start=1):
        path = os.path.join(dest, f"{index:04d}.png")
        iio.imwrite(path, load_photograph(name))
        paths.append(path)
    return paths


def div2k_like_dir() -> str:
    """The default DIV2K-like folder (built on first use)."""
    dest = os.path.join(data_home(), "div2k_like", "DIV2K_train_HR")
    return build_folder_atomically(dest, write_div2k_like)
