from .tfutil import *
