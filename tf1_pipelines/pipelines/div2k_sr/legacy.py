"""Seed 000's legacy face: :class:`DataLoader` with the seed's constructor,
``gen_tfrecords``, ``read_tfrecords``, ``get_generator`` and ``read_pngs``,
returning graph tensors as the seed does, and the seed's ``utils`` functions
(``rgb2ycbcr``, ``ycbcr2rgb``, ``img_to_uint8``, ``psnr``)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import tensorflow as tf

from tf1_pipelines.errors import ConfigError
from tf1_pipelines.image import pilutil as misc
from tf1_pipelines.image.colour import img_to_uint8, psnr, rgb2ycbcr, ycbcr2rgb
from tf1_pipelines.image.patches import list_images, random_patch, read_rgb
from tf1_pipelines.inputs.dataset import one_shot
from tf1_pipelines.options import check_parallel_calls, check_positive_int, checked_options, choice_of
from tf1_pipelines.records.reader import list_record_files

from .graph import LR_HR_ANY, LR_METHODS, parse_one_example, require_graph_mode
from .records import write_patch_records

__all__ = ["DataLoader", "img_to_uint8", "psnr", "rgb2ycbcr", "ycbcr2rgb"]

tf1 = tf.compat.v1


#: The checks of the loader's numeric options (the uniform face adds its own).
LOADER_CHECKS = {"patch_size": check_positive_int, "scale": check_positive_int,
                 "batch_size": check_positive_int, "shuffle_num": check_positive_int,
                 "prefetch_num": check_parallel_calls, "map_parallel_num": check_parallel_calls,
                 "one_img_patch_num": check_positive_int, "lr_method": choice_of(*LR_METHODS)}


class DataLoader:
    """The seed's loader, with its arguments and defaults.

    ``lr_method`` (not in the seed) picks the LR resize: ``'py_func'`` (default,
    the seed's PIL call) or ``'native'`` (the same values from in-graph matrix
    products).
    """

    @checked_options(**LOADER_CHECKS)
    def __init__(self, data_dir: str = "DIV2K/DIV2K_train_HR", patch_size: int = 96,
                 scale: int = 4, batch_size: int = 64, shuffle_num: int = 2000,
                 prefetch_num: int = 1000, map_parallel_num: int = 8,
                 one_img_patch_num: int = 100, lr_method: str = "py_func") -> None:
        if lr_method not in LR_METHODS:
            raise ConfigError(f"lr_method must be one of {LR_METHODS}, got {lr_method!r}")
        if patch_size % scale:
            raise ConfigError(f"patch_size {patch_size} must be a multiple of scale {scale}")
        self.data_dir = data_dir
        self.patch_size = patch_size
        self.scale = scale
        self.batch_size = check_positive_int("batch_size", batch_size)
        self.shuffle_num = shuffle_num
        self.prefetch_num = prefetch_num
        self.map_parallel_num = map_parallel_num
        self.one_img_patch_num = one_img_patch_num
        self.lr_method = lr_method

    def gen_tfrecords(self, save_dir: str = "DIV2K/tfrecords", tfrecord_num: int = 10) -> int:
        """Write the patch records as the seed does, printing its progress lines."""
        paths = list_images(self.data_dir)
        count = write_patch_records(paths, save_dir, self.patch_size, tfrecord_num,
                                    on_image=lambda path, _: print(f"processing {path}"))
        print(f"example number: {count}")
        return count

    def _parse_one_example(self, example_proto: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        return parse_one_example(example_proto, self.patch_size, self.scale, self.lr_method)

    def read_tfrecords(self, save_dir: str = "DIV2K/tfrecords") -> tuple[tf.Tensor, tf.Tensor]:
        """``(lrs, gts)`` graph tensors [B,24,24,1], [B,96,96,1] from a one-shot iterator."""
        require_graph_mode("DataLoader.read_tfrecords")
        fs_paths = list_record_files(save_dir)
        dataset = tf1.data.TFRecordDataset(fs_paths)
        dataset = dataset.map(self._parse_one_example, self.map_parallel_num) \
            .shuffle(self.shuffle_num).prefetch(self.prefetch_num) \
            .batch(self.batch_size).repeat()
        return one_shot(dataset)

    def get_generator(self, rng: Any = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Random patches straight from the PNGs: yields ``(lr, gt)`` float32 [24,24],
        [96,96] in 0..1, flipped together. Draws from numpy's global RNG as the seed
        does, unless ``rng`` (a ``np.random.RandomState``) is given."""
        rng = np.random if rng is None else rng
        p, scale = self.patch_size, self.scale
        for img_path in list_images(self.data_dir):
            img = read_rgb(img_path, min_size=p)
            for _ in range(self.one_img_patch_num):
                patch = random_patch(img, p, rng)
                gt = rgb2ycbcr(patch)[:, :, 0].astype(np.float32)
                lr = misc.imresize(gt, 1.0 / scale, "bicubic", "F")
                gt, lr = gt / 255.0, lr / 255.0
                c1, c2 = rng.rand(), rng.rand()
                if c1 < 0.5:
                    gt, lr = gt[::-1, :], lr[::-1, :]
                if c2 < 0.5:
                    gt, lr = gt[:, ::-1], lr[:, ::-1]
                yield lr, gt

    def read_pngs(self) -> tuple[tf.Tensor, tf.Tensor]:
        """``(lrs, gts)`` graph tensors from :meth:`get_generator`, as the seed builds them."""
        require_graph_mode("DataLoader.read_pngs")
        dataset = tf1.data.Dataset.from_generator(self.get_generator, output_signature=LR_HR_ANY)
        dataset = dataset.shuffle(self.shuffle_num).prefetch(self.prefetch_num) \
            .batch(self.batch_size).repeat()
        lrs, gts = one_shot(dataset)
        p = self.patch_size
        lrs = tf.reshape(lrs, [-1, p // self.scale, p // self.scale, 1])
        gts = tf.reshape(gts, [-1, p, p, 1])
        return lrs, gts
