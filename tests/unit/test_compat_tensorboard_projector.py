"""``tf.contrib.tensorboard.plugins.projector``: the projector config messages and ``visualize_embeddings``."""
from __future__ import annotations

from pathlib import Path

import pytest

from compat.contrib import tensorboard
from compat.errors import LegacyAPIError


class _Writer:
    """What visualize_embeddings uses of a FileWriter."""

    def __init__(self, logdir: Path) -> None:
        self._logdir = logdir

    def get_logdir(self) -> str:
        return str(self._logdir)


def test_config_wire_format_has_the_proto_field_numbers() -> None:
    config = tensorboard.plugins.projector.ProjectorConfig()
    config.embeddings.add().tensor_name = "a"
    # field 2 (embeddings), length-delimited, 3 bytes: field 1 (tensor_name), length 1, "a".
    assert config.SerializeToString() == bytes([0x12, 3, 0x0A, 1]) + b"a"
    sprite = tensorboard.SpriteMetadata(image_path="s.png", single_image_dim=[28, 28])
    # field 1 string "s.png"; field 2 packed uint32 (proto3): length 2, 28, 28.
    assert sprite.SerializeToString() == bytes([0x0A, 5]) + b"s.png" + bytes([0x12, 2, 28, 28])


def test_visualize_embeddings_writes_pbtxt_in_the_writer_log_dir(tmp_path: Path) -> None:
    from google.protobuf import text_format
    config = tensorboard.ProjectorConfig(model_checkpoint_path="model.ckpt")
    embedding = config.embeddings.add()
    embedding.tensor_name = "embeddings:0"
    embedding.metadata_path = "metadata.tsv"
    embedding.tensor_shape.extend([10, 4])
    tensorboard.visualize_embeddings(_Writer(tmp_path / "log"), config)
    written = (tmp_path / "log" / "projector_config.pbtxt").read_text()
    assert 'tensor_name: "embeddings:0"' in written and 'model_checkpoint_path: "model.ckpt"' in written
    parsed = text_format.Parse(written, tensorboard.ProjectorConfig())
    assert list(parsed.embeddings[0].tensor_shape) == [10, 4]
    # The TF 2 form: a log directory instead of a writer.
    tensorboard.visualize_embeddings(str(tmp_path / "other"), config)
    assert (tmp_path / "other" / "projector_config.pbtxt").read_text() == written


def test_bad_writer_and_unknown_names_raise() -> None:
    with pytest.raises(TypeError, match="FileWriter"):
        tensorboard.visualize_embeddings(42, tensorboard.ProjectorConfig())
    with pytest.raises(LegacyAPIError, match="tensorboard"):
        _ = tensorboard.no_such_name
