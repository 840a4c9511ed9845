"""Data helpers of a sentence-classification CNN (2016-2017 style)."""
import re

import numpy as np


def clean_str(string):
    """Tokenization/string cleaning, lower-cased."""
    string = re.sub(r"[^A-Za-z0-9(),!?\'\`]", " ", string)
    string = re.sub(r"\s{2,}", " ", string)
    return string.strip().lower()


def load_sentences(path):
    with open(path) as f:
        return [clean_str(line) for line in f if line.strip()]


def pad_sentences(token_ids, pad_id=0):
    """Pads every sentence to the longest one (np.lib.pad, as of NumPy 1.x)."""
    sequence_length = max(len(x) for x in token_ids)
    padded = [np.lib.pad(np.array(x, dtype=np.int), (0, sequence_length - len(x)), 'constant',
                         constant_values=pad_id) for x in token_ids]
    return np.array(padded), sequence_length


def batch_iter(data, batch_size, shuffle=False):
    data = np.array(data)
    data_size = len(data)
    num_batches = int((data_size - 1) / batch_size) + 1
    for batch_num in range(num_batches):
        start_index = batch_num * batch_size
        end_index = min((batch_num + 1) * batch_size, data_size)
        yield data[start_index:end_index]
