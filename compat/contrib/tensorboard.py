"""``tf.contrib.tensorboard.plugins.projector``: the embedding projector's config, as word2vec-era scripts wrote it.

After training, embedding scripts of 2016-2019 described their embedding
variables for TensorBoard's projector::

    config = projector.ProjectorConfig()
    embedding = config.embeddings.add()
    embedding.tensor_name = embeddings.name
    embedding.metadata_path = 'metadata.tsv'
    projector.visualize_embeddings(summary_writer, config)

which writes ``projector_config.pbtxt`` (the config in protobuf text format)
into the writer's log directory, where TensorBoard's projector reads it. The
``tensorboard`` package is not needed: the three messages
(``ProjectorConfig``, ``EmbeddingInfo``, ``SpriteMetadata``, package
``tensorboard``, the field names and numbers of ``projector_config.proto``) are
built here in a private descriptor pool, so they cannot clash with an
installed ``tensorboard``. This bridge holds the names of
``tf.contrib.tensorboard``, ``.plugins`` and ``.plugins.projector`` alike.
"""
from __future__ import annotations

import functools
import os
import sys
from typing import Any

from compat.contrib import refusing_getattr

__all__ = ["REFUSED", "visualize_embeddings"]

REFUSED: dict[str, str] = {}

_refuse = refusing_getattr("tensorboard", REFUSED)

#: message -> [(field name, number, type, repeated, message type of a message field)].
_STRING, _UINT32, _MESSAGE = "string", "uint32", "message"
_MESSAGES: dict[str, list[tuple[str, int, str, bool, str | None]]] = {
    "SpriteMetadata": [("image_path", 1, _STRING, False, None), ("single_image_dim", 2, _UINT32, True, None)],
    "EmbeddingInfo": [("tensor_name", 1, _STRING, False, None), ("metadata_path", 2, _STRING, False, None),
                      ("bookmarks_path", 3, _STRING, False, None), ("tensor_shape", 4, _UINT32, True, None),
                      ("sprite", 5, _MESSAGE, False, "SpriteMetadata"), ("tensor_path", 6, _STRING, False, None)],
    "ProjectorConfig": [("model_checkpoint_path", 1, _STRING, False, None),
                        ("embeddings", 2, _MESSAGE, True, "EmbeddingInfo"),
                        ("model_checkpoint_dir", 3, _STRING, False, None)],
}

#: The file name TensorBoard's projector looks for in a log directory.
CONFIG_FILE_NAME = "projector_config.pbtxt"


@functools.cache
def _message_classes() -> dict[str, type]:
    """The three message classes, built once from :data:`_MESSAGES` in a private pool."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    kinds = {_STRING: descriptor_pb2.FieldDescriptorProto.TYPE_STRING,
             _UINT32: descriptor_pb2.FieldDescriptorProto.TYPE_UINT32,
             _MESSAGE: descriptor_pb2.FieldDescriptorProto.TYPE_MESSAGE}
    file_proto = descriptor_pb2.FileDescriptorProto(name="tensorboard/plugins/projector/projector_config.proto",
                                                    package="tensorboard", syntax="proto3")
    for message_name, fields in _MESSAGES.items():
        message = file_proto.message_type.add(name=message_name)
        for name, number, kind, repeated, type_name in fields:
            field = message.field.add(name=name, number=number, type=kinds[kind],
                                      label=(descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED if repeated
                                             else descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL))
            if type_name is not None:
                field.type_name = f".tensorboard.{type_name}"
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file_proto)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"tensorboard.{name}"))
            for name in _MESSAGES}


def _log_dir(summary_writer: Any) -> str:
    """The log directory of a ``FileWriter`` (TF 1.x) or the directory itself (the TF 2 form)."""
    if isinstance(summary_writer, (str, os.PathLike)):
        return os.fspath(summary_writer)
    get_logdir = getattr(summary_writer, "get_logdir", None)
    if get_logdir is None:
        raise TypeError("visualize_embeddings: summary_writer must be a tf.summary.FileWriter or a log "
                        f"directory, got {type(summary_writer).__name__}")
    return str(get_logdir())


def visualize_embeddings(summary_writer: Any, config: Any) -> None:
    """Write ``config`` (a :class:`ProjectorConfig`) as ``projector_config.pbtxt`` in the writer's log directory.

    Raises:
        TypeError: ``summary_writer`` is neither a ``FileWriter`` nor a path.
    """
    import tensorflow as tf
    from google.protobuf import text_format

    log_dir = _log_dir(summary_writer)
    tf.io.gfile.makedirs(log_dir)
    with tf.io.gfile.GFile(os.path.join(log_dir, CONFIG_FILE_NAME), "w") as f:
        f.write(text_format.MessageToString(config))


def __getattr__(name: str) -> Any:
    if name in _MESSAGES:
        return _message_classes()[name]
    if name in ("plugins", "projector"):  # tf.contrib.tensorboard.plugins.projector: the same names
        return sys.modules[__name__]
    return _refuse(name)
