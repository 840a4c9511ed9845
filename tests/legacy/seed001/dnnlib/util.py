# dnnlib.util, reduced to get_obj_by_name (what training/dataset.py uses).
import importlib


def get_obj_by_name(name):
    """Find a Python object by its fully qualified name, e.g. 'training.dataset.TFRecordDataset'."""
    module_name, obj_name = name.rsplit('.', 1)
    module = importlib.import_module(module_name)
    return getattr(module, obj_name)
