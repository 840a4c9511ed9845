"""Keras 1 model arguments, as standalone Keras 2.0-2.3 accepted them: served ``Model``/``Sequential``.

``model.fit(X, y, nb_epoch=10)``, ``fit_generator(gen, samples_per_epoch=,
nb_epoch=, nb_val_samples=, nb_worker=, pickle_safe=, max_q_size=)``,
``evaluate_generator(gen, val_samples=)``, ``predict_generator(gen, val_samples=)``
and ``Model(input=..., output=...)`` are converted with the tables of
:mod:`compat.keras2.legacy_interfaces`; see there for how the classes are
served. Imported when the first model class is served (imports tf_keras).
"""
from __future__ import annotations

import functools
import warnings
from typing import Any

from tf_keras.src.engine import functional, training

from compat.keras2 import legacy_interfaces as li

__all__ = ["Keras1ModelMethods", "load_model_function", "model_class"]


def _per_sample(metric: Any) -> Any:
    """``metric``, its scalar result spread over the samples of ``y_pred`` (``y_pred.shape[:-1]``).

    Keras 2.0-2.2 multiplied each metric's result by the output's mask (and sample
    weights) and averaged, so a metric function returning one number for the batch
    (keras-contrib's ``crf_viterbi_accuracy``, many hand-written ones) reported that
    number; tf_keras's weighted mean refuses a scalar beside a mask of shape
    ``(batch, time)``. The same number at every sample keeps the weighted mean equal to it.
    """
    @functools.wraps(metric)
    def spread(y_true: Any, y_pred: Any) -> Any:
        import tensorflow as tf
        result = metric(y_true, y_pred)
        if isinstance(result, tf.Tensor) and result.shape.rank == 0 and y_pred.shape.rank is not None \
                and y_pred.shape.rank >= 2:
            return tf.fill(tf.shape(y_pred)[:-1], result)
        return result
    return spread


def _spread_metrics(metrics: Any) -> Any:
    """``compile``'s ``metrics`` (a list, a dict of lists or names) with each function :func:`_per_sample`."""
    if isinstance(metrics, dict):
        return {name: _spread_metrics(value) for name, value in metrics.items()}
    if isinstance(metrics, (list, tuple)):
        return type(metrics)(_spread_metrics(m) for m in metrics)
    return _per_sample(metrics) if callable(metrics) and not isinstance(metrics, type) \
        and not hasattr(metrics, "update_state") else metrics


class Keras1ModelMethods:
    """The model methods whose Keras 1 arguments Keras 2.x converted (mixed in before the tf_keras class)."""

    def compile(self, *args: Any, **kwargs: Any) -> Any:
        """``compile``, a metric function returning one number for the batch reported as Keras 2.2 did
        (see :func:`_per_sample`)."""
        for key in ("metrics", "weighted_metrics"):
            if kwargs.get(key) is not None:
                kwargs[key] = _spread_metrics(kwargs[key])
        if len(args) >= 3:
            args = (*args[:2], _spread_metrics(args[2]), *args[3:])
        return super().compile(*args, **kwargs)  # type: ignore[misc]

    def fit(self, *args: Any, **kwargs: Any) -> Any:
        """``fit`` with Keras 1's ``nb_epoch`` (Keras 2: ``epochs``)."""
        if "nb_epoch" in kwargs:
            # As Keras 2.x: nb_epoch replaces epochs, with this warning.
            warnings.warn("The `nb_epoch` argument in `fit` has been renamed `epochs`.", UserWarning, stacklevel=2)
            kwargs["epochs"] = kwargs.pop("nb_epoch")
        return super().fit(*args, **kwargs)  # type: ignore[misc]

    def fit_generator(self, *args: Any, **kwargs: Any) -> Any:
        """``fit_generator`` with Keras 1 arguments (``samples_per_epoch``: see :data:`li.GENERATOR_INTERFACE`)."""
        args, kwargs = li.convert(li.GENERATOR_INTERFACE, "fit_generator", args, kwargs)
        return super().fit_generator(*args, **kwargs)  # type: ignore[misc]

    def evaluate_generator(self, *args: Any, **kwargs: Any) -> Any:
        """``evaluate_generator`` with Keras 1 arguments (``val_samples`` -> ``steps``, the same number)."""
        args, kwargs = li.convert(li.GENERATOR_INTERFACE, "evaluate_generator", args, kwargs)
        return super().evaluate_generator(*args, **kwargs)  # type: ignore[misc]

    def predict_generator(self, *args: Any, **kwargs: Any) -> Any:
        """``predict_generator`` with Keras 1 arguments (``val_samples`` -> ``steps``, the same number)."""
        args, kwargs = li.convert(li.GENERATOR_INTERFACE, "predict_generator", args, kwargs)
        return super().predict_generator(*args, **kwargs)  # type: ignore[misc]


def _constructor(served: list[Any]) -> dict[str, Any]:
    """``__new__``/``__init__`` of the served ``Model``: ``input``/``output`` renamed.

    (The served ``Functional`` keeps tf_keras's ``__init__``: saving tells a
    functional model by its constructor's signature.)
    """

    def __new__(cls: Any, *args: Any, **kwargs: Any) -> Any:
        if cls is not served[0]:
            return super(served[0], cls).__new__(cls, *args, **kwargs)
        args, kwargs = li.convert(li.MODEL_INTERFACE, "Model", args, kwargs)
        if training.is_functional_model_init_params(args, kwargs):
            # tf_keras's Model(...) becomes a Functional only for tf_keras's own Model class; ours must
            # build the served Functional itself (fully: its __init__ is not called again).
            return model_class(functional.Functional)(*args, **kwargs)
        return super(served[0], cls).__new__(cls, *args, **kwargs)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        args, kwargs = li.convert(li.MODEL_INTERFACE, type(self).__name__, args, kwargs)
        if training.is_functional_model_init_params(args, kwargs) and not isinstance(self, functional.Functional):
            # A script's subclass of Model given inputs and outputs: tf_keras would turn the classes above
            # it into Functional ones, the shared served Model too; turn only the script's classes.
            _inject_functional(type(self), served[0])
            served_functional: Any = model_class(functional.Functional)
            served_functional.__init__(self, *args, **kwargs)
            return
        super(served[0], self).__init__(*args, **kwargs)

    return {"__new__": __new__, "__init__": __init__}


def _inject_functional(cls: type, served_model: type) -> None:
    """Replace the served Model by the served Functional among the bases of ``cls`` and of its ancestors."""
    if cls in (served_model, object):
        return
    cls.__bases__ = tuple(model_class(functional.Functional) if base is served_model else base
                          for base in cls.__bases__)
    for base in cls.__bases__:
        _inject_functional(base, served_model)


def model_class(original: type) -> type:
    """The served class for tf_keras's ``Model``, ``Functional`` or ``Sequential``."""
    if original in li._SERVED:
        return li._SERVED[original]
    served: list[Any] = []
    namespace = _constructor(served) if original.__name__ == "Model" else {}
    served.append(li._served_type(original, (Keras1ModelMethods, original), namespace))
    return served[0]


def load_model_function(load: Any) -> Any:
    """``load_model`` (or ``model_from_json``/``_yaml``/``_config``) building the served model classes, so a
    loaded model takes Keras 1 arguments too (the script's ``custom_objects`` win)."""
    def loader(*args: Any, custom_objects: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        objects = {"Model": model_class(functional.Functional), "Functional": model_class(functional.Functional),
                   "Sequential": li.legacy_class(_sequential())}
        objects.update(custom_objects or {})
        return load(*args, custom_objects=objects, **kwargs)

    loader.__name__ = loader.__qualname__ = load.__name__
    loader.__doc__ = load.__doc__
    loader.__wrapped__ = load  # type: ignore[attr-defined]
    return loader


def _sequential() -> type:
    from tf_keras.src.engine.sequential import Sequential
    return Sequential
