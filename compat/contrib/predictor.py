"""``tf.contrib.predictor``: call a SavedModel's signature like a function (TF 1.x serving code).

``from_saved_model(export_dir)`` loads the model into its own graph and
session; calling the predictor with ``{input_key: value}`` runs the signature
and returns ``{output_key: array}``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = ["from_saved_model"]

REFUSED: dict[str, str] = {
    "from_estimator": "export the estimator's SavedModel, then from_saved_model (or tf.saved_model.load)",
    "from_contrib_estimator": "export the estimator's SavedModel, then from_saved_model (or tf.saved_model.load)",
}

__getattr__ = refusing_getattr("predictor", REFUSED)

_DEFAULT_SIGNATURE = "serving_default"


class SavedModelPredictor:
    """A loaded SavedModel signature: ``predictor({key: value}) -> {key: array}``."""

    def __init__(self, export_dir: str, signature_def_key: str | None = None, signature_def: Any = None,
                 input_names: Mapping[str, str] | None = None, output_names: Mapping[str, str] | None = None,
                 tags: Sequence[str] | None = None, graph: Any = None, config: Any = None) -> None:
        self._graph = graph if graph is not None else tf.Graph()
        self._session = tf.compat.v1.Session(graph=self._graph, config=config)
        with self._graph.as_default():
            meta_graph = tf.compat.v1.saved_model.loader.load(self._session, list(tags or ["serve"]), export_dir)
        if input_names is not None and output_names is not None:
            inputs, outputs = dict(input_names), dict(output_names)
        else:
            signature = signature_def or self._signature(meta_graph, signature_def_key or _DEFAULT_SIGNATURE)
            inputs = {key: info.name for key, info in signature.inputs.items()}
            outputs = {key: info.name for key, info in signature.outputs.items()}
        self._feed_tensors = {key: self._graph.get_tensor_by_name(name) for key, name in inputs.items()}
        self._fetch_tensors = {key: self._graph.get_tensor_by_name(name) for key, name in outputs.items()}

    @staticmethod
    def _signature(meta_graph: Any, key: str) -> Any:
        if key not in meta_graph.signature_def:
            raise ValueError(f"from_saved_model: no signature {key!r} in the SavedModel; it has "
                             f"{sorted(meta_graph.signature_def)}")
        return meta_graph.signature_def[key]

    @property
    def session(self) -> Any:
        """The session holding the loaded variables."""
        return self._session

    @property
    def graph(self) -> Any:
        """The graph the model was loaded into."""
        return self._graph

    @property
    def feed_tensors(self) -> dict[str, Any]:
        """Input key -> placeholder."""
        return dict(self._feed_tensors)

    @property
    def fetch_tensors(self) -> dict[str, Any]:
        """Output key -> tensor."""
        return dict(self._fetch_tensors)

    def __call__(self, input_dict: Mapping[str, Any]) -> dict[str, Any]:
        """``{output_key: array}`` for ``{input_key: value}``.

        Raises:
            ValueError: ``input_dict`` names a key the signature lacks.
        """
        unknown = set(input_dict) - set(self._feed_tensors)
        if unknown:
            raise ValueError(f"predictor: unknown input keys {sorted(unknown)}; the signature takes "
                             f"{sorted(self._feed_tensors)}")
        feed = {self._feed_tensors[key]: value for key, value in input_dict.items()}
        return dict(self._session.run(self._fetch_tensors, feed_dict=feed))


def from_saved_model(export_dir: str, signature_def_key: str | None = None, signature_def: Any = None,
                     input_names: Mapping[str, str] | None = None, output_names: Mapping[str, str] | None = None,
                     tags: Sequence[str] | None = None, graph: Any = None, config: Any = None) -> SavedModelPredictor:
    """A predictor over the SavedModel in ``export_dir`` (signature ``serving_default`` unless named)."""
    return SavedModelPredictor(export_dir, signature_def_key, signature_def, input_names, output_names, tags,
                               graph, config)
