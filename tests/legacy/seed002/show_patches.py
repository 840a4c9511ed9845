# Runs seed 002 (sample_patches.py, unchanged) and prints what it sampled: the
# answer itself prints nothing.
from __future__ import print_function

import sample_patches

res = sample_patches.res
print(res.shape, res.dtype)
print('in [0, 1]:', res.min() >= 0.0 and res.max() <= 1.0)
print('distinct patches:', len(set(p.tostring() for p in res)))
