"""The embedded in-memory sample of ``feeding`` and ``constant``: 32x32 tiles of the
bundled photographs, labelled by photograph."""
from __future__ import annotations

import numpy as np
import PIL.Image

from tf1_pipelines.data import sample_data

SAMPLE_TILE = 32
SAMPLE_TILES_PER_SIDE = 3


def sample_arrays() -> dict[str, np.ndarray]:
    """The embedded sample: each bundled photograph's centred square resized (Lanczos)
    to 96x96 and cut into nine 32x32 tiles (rows, then columns), photograph by
    photograph: ``images`` uint8 [90, 32, 32, 3], ``labels`` int64 [90]."""
    side = SAMPLE_TILE * SAMPLE_TILES_PER_SIDE
    images, labels = [], []
    for index, name in enumerate(sample_data.PHOTOGRAPHS):
        photo = sample_data.load_photograph(name)
        height, width = photo.shape[:2]
        square = min(height, width)
        top, left = (height - square) // 2, (width - square) // 2
        small = np.asarray(PIL.Image.fromarray(photo[top:top + square, left:left + square])
                           .resize((side, side), PIL.Image.Resampling.LANCZOS))
        for row in range(0, side, SAMPLE_TILE):
            for col in range(0, side, SAMPLE_TILE):
                images.append(small[row:row + SAMPLE_TILE, col:col + SAMPLE_TILE])
                labels.append(index)
    return {"images": np.stack(images), "labels": np.asarray(labels, np.int64)}
