# dnnlib.tflib.tfutil, reduced to what training/dataset.py and a projection
# script use: init_tf, run, set_vars, create_var_with_large_initial_value.
import numpy as np
import tensorflow as tf


def run(*args, **kwargs):
    """Run the specified ops in the default session."""
    return tf.get_default_session().run(*args, **kwargs)


def init_tf(config_dict=None):
    """Create a default session (if there is none) and make it the default."""
    if tf.get_default_session() is None:
        config = tf.ConfigProto()
        config.gpu_options.allow_growth = True
        session = tf.Session(config=config)
        session._default_session = session.as_default()
        session._default_session.enforce_nesting = False
        session._default_session.__enter__()


def set_vars(var_to_value_dict):
    """Assign values to variables through placeholders, so large values stay out of the graph."""
    ops = []
    feed_dict = {}
    for var, value in var_to_value_dict.items():
        with tf.name_scope(var.name.split(':')[0] + '_setter'):
            new_value = tf.placeholder(var.dtype.base_dtype, var.shape, 'new_value')
            ops.append(tf.assign(var, new_value))
        feed_dict[new_value] = value
    run(ops, feed_dict)


def create_var_with_large_initial_value(initial_value, *args, **kwargs):
    """Create a variable without putting its (possibly large) initial value into the graph."""
    assert isinstance(initial_value, np.ndarray)
    zeros = tf.zeros(initial_value.shape, initial_value.dtype)
    var = tf.Variable(zeros, *args, **kwargs)
    set_vars({var: initial_value})
    return var
