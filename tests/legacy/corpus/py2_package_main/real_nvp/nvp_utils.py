"""Utilities of a 2016 flow model, Python 2 style."""
import numpy as np
from nvp_layers import checkerboard


def squeeze(x):
    """[h, w, c] -> [h/2, w/2, 4c], as real NVP's squeeze."""
    h, w, c = x.shape
    x = x.reshape(h / 2, 2, w / 2, 2, c)
    return x.transpose(0, 2, 1, 3, 4).reshape(h / 2, w / 2, 4 * c)


def masked(x):
    mask = checkerboard(x.shape[0], x.shape[1])
    return x * mask[:, :, None]


def debug(x):
    print "debug", x.shape
