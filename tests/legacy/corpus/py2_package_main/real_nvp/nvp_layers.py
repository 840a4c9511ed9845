import numpy as np


def checkerboard(h, w):
    return np.fromfunction(lambda i, j: (i + j) % 2, (h, w))
