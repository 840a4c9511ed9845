# Minimal stand-in for the dnnlib package of the StyleGAN2 repositories: only
# what training/dataset.py uses.
from . import util
