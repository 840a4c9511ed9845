"""``tf.contrib.legacy_seq2seq`` on TensorFlow 2: the list-of-tensors seq2seq models of 2016 (translate.py, chatbots).

Written here from the documented behaviour, with the variable scopes TF 1.x used
(``embedding_attention_seq2seq/rnn/embedding_wrapper/embedding``,
``.../embedding_attention_decoder/attention_decoder/AttnW_0``, ``AttnV_0``,
``Attention_0/kernel``, ``AttnOutputProjection/kernel``, ...), so checkpoints restore.

Inputs are Python lists with one tensor per time step: ``encoder_inputs`` /
``decoder_inputs`` int32 ``[batch]`` (embedding models) or float ``[batch, depth]``;
``targets`` int32 ``[batch]``; ``weights`` float ``[batch]``; outputs are lists of
``[batch, output_size]`` logits. Graph mode (``tf.compat.v1``) only, as in TF 1.x.

The encoders of TF 1.x deep-copied the caller's cell; TensorFlow 2 cannot copy a
built cell in graph mode, so the copy is made once per (graph, cell) and reused,
which is what bucketed models (:func:`model_with_buckets`) need anyway.
"""
from __future__ import annotations

import copy
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import tensorflow as tf

from compat.contrib import refusing_getattr
from compat.contrib._rnn_cells import EmbeddingWrapper, OutputProjectionWrapper, linear

v1 = tf.compat.v1

__all__ = [
    "attention_decoder", "basic_rnn_seq2seq", "embedding_attention_decoder", "embedding_attention_seq2seq",
    "embedding_rnn_decoder", "embedding_rnn_seq2seq", "embedding_tied_rnn_seq2seq", "model_with_buckets",
    "one2many_rnn_seq2seq", "rnn_decoder", "sequence_loss", "sequence_loss_by_example", "tied_rnn_seq2seq",
]

REFUSED: dict[str, str] = {}

# TF 1.x's source paths below this module (``tensorflow.contrib.legacy_seq2seq.python.ops...``) are served
# this module's names by the runner (compat.surfaces.modules.source_path_module).
__getattr__ = refusing_getattr("legacy_seq2seq", REFUSED)

_ENCODER_COPIES: weakref.WeakKeyDictionary[Any, dict[int, Any]] = weakref.WeakKeyDictionary()


def _encoder_copy(cell: Any) -> Any:
    """A copy of ``cell`` for the encoder, made once per graph (a built cell cannot be copied in graph mode)."""
    per_graph = _ENCODER_COPIES.setdefault(v1.get_default_graph(), {})
    key = id(cell)
    if key not in per_graph:
        if getattr(cell, "built", False):
            raise ValueError(f"the cell {cell!r} was already used before this seq2seq model: TF 1.x deep-copied it "
                             "for the encoder, which TensorFlow 2 cannot do for a built cell; pass a new cell")
        per_graph[key] = (cell, copy.deepcopy(cell))  # keep the original alive so its id stays unique
    return per_graph[key][1]


def _static_rnn(cell: Any, inputs: Sequence[tf.Tensor], dtype: Any, scope: Any = None) -> tuple[list, Any]:
    return v1.nn.static_rnn(cell, list(inputs), dtype=dtype, scope=scope)


def rnn_decoder(decoder_inputs: Sequence[tf.Tensor], initial_state: Any, cell: Any,
                loop_function: Callable[[tf.Tensor, int], tf.Tensor] | None = None,
                scope: Any = None) -> tuple[list[tf.Tensor], Any]:
    """Run ``cell`` over ``decoder_inputs`` from ``initial_state``; with ``loop_function``, step ``i > 0`` is fed
    ``loop_function(previous output, i)`` instead of its input. Returns (outputs, final state)."""
    with v1.variable_scope(scope or "rnn_decoder"):
        state, outputs, prev = initial_state, [], None
        for i, inp in enumerate(decoder_inputs):
            if loop_function is not None and prev is not None:
                with v1.variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, i)
            if i > 0:
                v1.get_variable_scope().reuse_variables()
            output, state = cell(inp, state)
            outputs.append(output)
            if loop_function is not None:
                prev = output
    return outputs, state


def basic_rnn_seq2seq(encoder_inputs: Sequence[tf.Tensor], decoder_inputs: Sequence[tf.Tensor], cell: Any,
                      dtype: Any = tf.float32, scope: Any = None) -> tuple[list[tf.Tensor], Any]:
    """Encode with a copy of ``cell`` (scope ``rnn``), decode with ``cell`` from its final state (``rnn_decoder``)."""
    with v1.variable_scope(scope or "basic_rnn_seq2seq"):
        _, enc_state = _static_rnn(_encoder_copy(cell), encoder_inputs, dtype)
        return rnn_decoder(decoder_inputs, enc_state, cell)


def tied_rnn_seq2seq(encoder_inputs: Sequence[tf.Tensor], decoder_inputs: Sequence[tf.Tensor], cell: Any,
                     loop_function: Callable[..., tf.Tensor] | None = None, dtype: Any = tf.float32,
                     scope: Any = None) -> tuple[list[tf.Tensor], Any]:
    """Encoder and decoder share ``cell``'s variables (``combined_tied_rnn_seq2seq/tied_rnn_seq2seq/...``)."""
    with v1.variable_scope("combined_tied_rnn_seq2seq"):
        scope = scope or "tied_rnn_seq2seq"
        _, enc_state = _static_rnn(cell, encoder_inputs, dtype, scope=scope)
        v1.get_variable_scope().reuse_variables()
        return rnn_decoder(decoder_inputs, enc_state, cell, loop_function=loop_function, scope=scope)


def _extract_argmax_and_embed(embedding: tf.Tensor, output_projection: Any = None,
                              update_embedding: bool = True) -> Callable[[tf.Tensor, int], tf.Tensor]:
    """A loop function feeding back the embedding of the previous step's argmax symbol."""
    def loop_function(prev: tf.Tensor, _: int) -> tf.Tensor:
        if output_projection is not None:
            prev = tf.matmul(prev, output_projection[0]) + output_projection[1]
        emb_prev = tf.nn.embedding_lookup(embedding, tf.argmax(prev, 1))
        return emb_prev if update_embedding else tf.stop_gradient(emb_prev)
    return loop_function


def _check_projection(output_projection: Any, num_symbols: int, dtype: Any) -> None:
    """Raise ValueError unless ``output_projection`` is ``(W [size, num_symbols], b [num_symbols])`` or None."""
    if output_projection is None:
        return
    weights = tf.convert_to_tensor(output_projection[0], dtype=dtype)
    biases = tf.convert_to_tensor(output_projection[1], dtype=dtype)
    if not weights.shape.is_compatible_with([None, num_symbols]) or not biases.shape.is_compatible_with(
            [num_symbols]):
        raise ValueError(f"output_projection must be (W [output_size, {num_symbols}], b [{num_symbols}]), got "
                         f"shapes {weights.shape} and {biases.shape}")


def _by_feed_previous(feed_previous: Any, build: Callable[[bool], tuple[list[tf.Tensor], Any]],
                      state_like: Any) -> tuple[list[tf.Tensor], Any]:
    """``build(feed_previous)`` for a Python bool; for a bool tensor, both branches chosen by ``tf.cond``.

    The variables are created once outside the conditional (TensorFlow 2's ``cond`` cannot create them),
    then both branches reuse them.
    """
    if isinstance(feed_previous, bool):
        return build(feed_previous)
    build(False)  # creates the variables; the ops of this copy are never run
    with v1.variable_scope(v1.get_variable_scope(), reuse=True):
        def branch(flag: bool) -> list[tf.Tensor]:
            outputs, state = build(flag)
            return list(outputs) + tf.nest.flatten(state)
        both = tf.cond(feed_previous, lambda: branch(True), lambda: branch(False))
    count = len(both) - len(tf.nest.flatten(state_like))
    return list(both[:count]), tf.nest.pack_sequence_as(state_like, list(both[count:]))


def embedding_rnn_decoder(decoder_inputs: Sequence[tf.Tensor], initial_state: Any, cell: Any, num_symbols: int,
                          embedding_size: int, output_projection: Any = None, feed_previous: Any = False,
                          update_embedding_for_previous: bool = True,
                          scope: Any = None) -> tuple[list[tf.Tensor], Any]:
    """``rnn_decoder`` over the embeddings (``embedding_rnn_decoder/embedding`` ``[num_symbols, embedding_size]``)
    of the int ``decoder_inputs``; ``feed_previous`` feeds back the argmax of each output."""
    with v1.variable_scope(scope or "embedding_rnn_decoder") as var_scope:
        _check_projection(output_projection, num_symbols, var_scope.dtype)
        embedding = v1.get_variable("embedding", [num_symbols, embedding_size])
        loop_function = (_extract_argmax_and_embed(embedding, output_projection, update_embedding_for_previous)
                         if feed_previous else None)
        emb_inp = [tf.nn.embedding_lookup(embedding, i) for i in decoder_inputs]
        return rnn_decoder(emb_inp, initial_state, cell, loop_function=loop_function)


def embedding_rnn_seq2seq(encoder_inputs: Sequence[tf.Tensor], decoder_inputs: Sequence[tf.Tensor], cell: Any,
                          num_encoder_symbols: int, num_decoder_symbols: int, embedding_size: int,
                          output_projection: Any = None, feed_previous: Any = False, dtype: Any = None,
                          scope: Any = None) -> tuple[list[tf.Tensor], Any]:
    """Embedding encoder (``rnn/embedding_wrapper/embedding``) and :func:`embedding_rnn_decoder`; without
    ``output_projection`` the decoder cell is wrapped in ``OutputProjectionWrapper(num_decoder_symbols)``."""
    with v1.variable_scope(scope or "embedding_rnn_seq2seq", dtype=dtype) as var_scope:
        dtype = var_scope.dtype
        encoder_cell = EmbeddingWrapper(_encoder_copy(cell), embedding_classes=num_encoder_symbols,
                                        embedding_size=embedding_size)
        _, encoder_state = _static_rnn(encoder_cell, encoder_inputs, dtype)
        if output_projection is None:
            cell = OutputProjectionWrapper(cell, num_decoder_symbols)

        def build(flag: bool) -> tuple[list[tf.Tensor], Any]:
            return embedding_rnn_decoder(decoder_inputs, encoder_state, cell, num_decoder_symbols, embedding_size,
                                         output_projection=output_projection, feed_previous=flag,
                                         update_embedding_for_previous=isinstance(feed_previous, bool))
        return _by_feed_previous(feed_previous, build, encoder_state)


def embedding_tied_rnn_seq2seq(encoder_inputs: Sequence[tf.Tensor], decoder_inputs: Sequence[tf.Tensor], cell: Any,
                               num_symbols: int, embedding_size: int, num_decoder_symbols: int | None = None,
                               output_projection: Any = None, feed_previous: Any = False, dtype: Any = None,
                               scope: Any = None) -> tuple[list[tf.Tensor], Any]:
    """:func:`tied_rnn_seq2seq` over one shared ``embedding`` ``[num_symbols, embedding_size]``."""
    with v1.variable_scope(scope or "embedding_tied_rnn_seq2seq", dtype=dtype) as var_scope:
        dtype = var_scope.dtype
        embedding = v1.get_variable("embedding", [num_symbols, embedding_size], dtype=dtype)
        emb_encoder = [tf.nn.embedding_lookup(embedding, x) for x in encoder_inputs]
        emb_decoder = [tf.nn.embedding_lookup(embedding, x) for x in decoder_inputs]
        output_symbols = num_decoder_symbols if num_decoder_symbols is not None else num_symbols
        if output_projection is None:
            cell = OutputProjectionWrapper(cell, output_symbols)

        def build(flag: bool) -> tuple[list[tf.Tensor], Any]:
            loop = _extract_argmax_and_embed(embedding, output_projection, True) if flag else None
            return tied_rnn_seq2seq(emb_encoder, emb_decoder, cell, loop_function=loop, dtype=dtype)
        state_like = cell.zero_state(tf.shape(encoder_inputs[0])[0], dtype)
        return _by_feed_previous(feed_previous, build, state_like)


def attention_decoder(decoder_inputs: Sequence[tf.Tensor], initial_state: Any, attention_states: tf.Tensor,
                      cell: Any, output_size: int | None = None, num_heads: int = 1,
                      loop_function: Callable[..., tf.Tensor] | None = None, dtype: Any = None, scope: Any = None,
                      initial_state_attention: bool = False) -> tuple[list[tf.Tensor], Any]:
    """RNN decoder with additive attention over ``attention_states`` ``[batch, attn_length, attn_size]``.

    Per head ``a``: ``features = conv1x1(states, AttnW_a)``; ``score = sum(AttnV_a * tanh(features + query @
    Attention_a/kernel + bias))``; ``read = sum(softmax(score) * states)``; the query is the flattened cell
    state. Step input ``[x, reads] @ kernel + bias``; output ``[cell_out, reads] @ AttnOutputProjection``.
    """
    if not decoder_inputs:
        raise ValueError("attention_decoder needs at least one decoder input, got an empty list")
    if num_heads < 1:
        raise ValueError(f"attention_decoder needs num_heads >= 1, got {num_heads}")
    attn_size = tf.compat.dimension_value(attention_states.shape[2])
    if attn_size is None:
        raise ValueError(f"attention_states must have a known depth (axis 2), got shape {attention_states.shape}")
    output_size = output_size or cell.output_size
    with v1.variable_scope(scope or "attention_decoder", dtype=dtype) as var_scope:
        dtype = var_scope.dtype
        attn_length = tf.compat.dimension_value(attention_states.shape[1]) or tf.shape(attention_states)[1]
        hidden = tf.reshape(attention_states, [-1, attn_length, 1, attn_size])
        features, vectors = [], []
        for a in range(num_heads):
            k = v1.get_variable(f"AttnW_{a}", [1, 1, attn_size, attn_size], dtype=dtype)
            features.append(tf.nn.conv2d(hidden, k, [1, 1, 1, 1], "SAME"))
            vectors.append(v1.get_variable(f"AttnV_{a}", [attn_size], dtype=dtype))

        def attention(query: Any) -> list[tf.Tensor]:
            flat = tf.nest.flatten(query)
            query = flat[0] if len(flat) == 1 else tf.concat(flat, 1)
            reads = []
            for a in range(num_heads):
                with v1.variable_scope(f"Attention_{a}"):
                    y = tf.reshape(linear(query, attn_size, True), [-1, 1, 1, attn_size])
                    score = tf.reduce_sum(vectors[a] * tf.tanh(features[a] + y), [2, 3])
                    weights = tf.nn.softmax(score)
                    read = tf.reduce_sum(tf.reshape(weights, [-1, attn_length, 1, 1]) * hidden, [1, 2])
                    reads.append(tf.reshape(read, [-1, attn_size]))
            return reads

        batch_size = tf.shape(decoder_inputs[0])[0]
        attns = [tf.zeros(tf.stack([batch_size, attn_size]), dtype=dtype) for _ in range(num_heads)]
        for read in attns:
            read.set_shape([None, attn_size])
        state = initial_state
        if initial_state_attention:
            attns = attention(initial_state)
        outputs, prev = [], None
        for i, inp in enumerate(decoder_inputs):
            if i > 0:
                v1.get_variable_scope().reuse_variables()
            if loop_function is not None and prev is not None:
                with v1.variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, i)
            input_size = tf.compat.dimension_value(inp.shape[1])
            if input_size is None:
                raise ValueError(f"decoder input {i} must have a known depth, got shape {inp.shape}")
            x = linear([inp, *attns], int(input_size), True)
            cell_output, state = cell(x, state)
            if i == 0 and initial_state_attention:
                with v1.variable_scope(v1.get_variable_scope(), reuse=True):
                    attns = attention(state)
            else:
                attns = attention(state)
            with v1.variable_scope("AttnOutputProjection"):
                output = linear([cell_output, *attns], output_size, True)
            if loop_function is not None:
                prev = output
            outputs.append(output)
    return outputs, state


def embedding_attention_decoder(decoder_inputs: Sequence[tf.Tensor], initial_state: Any,
                                attention_states: tf.Tensor, cell: Any, num_symbols: int, embedding_size: int,
                                num_heads: int = 1, output_size: int | None = None, output_projection: Any = None,
                                feed_previous: Any = False, update_embedding_for_previous: bool = True,
                                dtype: Any = None, scope: Any = None,
                                initial_state_attention: bool = False) -> tuple[list[tf.Tensor], Any]:
    """:func:`attention_decoder` over the embeddings (``embedding_attention_decoder/embedding``) of int inputs."""
    output_size = output_size or cell.output_size
    with v1.variable_scope(scope or "embedding_attention_decoder", dtype=dtype) as var_scope:
        _check_projection(output_projection, num_symbols, var_scope.dtype)
        embedding = v1.get_variable("embedding", [num_symbols, embedding_size])
        loop_function = (_extract_argmax_and_embed(embedding, output_projection, update_embedding_for_previous)
                         if feed_previous else None)
        emb_inp = [tf.nn.embedding_lookup(embedding, i) for i in decoder_inputs]
        return attention_decoder(emb_inp, initial_state, attention_states, cell, output_size=output_size,
                                 num_heads=num_heads, loop_function=loop_function,
                                 initial_state_attention=initial_state_attention)


def embedding_attention_seq2seq(encoder_inputs: Sequence[tf.Tensor], decoder_inputs: Sequence[tf.Tensor],
                                cell: Any, num_encoder_symbols: int, num_decoder_symbols: int, embedding_size: int,
                                num_heads: int = 1, output_projection: Any = None, feed_previous: Any = False,
                                dtype: Any = None, scope: Any = None,
                                initial_state_attention: bool = False) -> tuple[list[tf.Tensor], Any]:
    """Embedding encoder whose outputs are attended by :func:`embedding_attention_decoder` (the translate.py model)."""
    with v1.variable_scope(scope or "embedding_attention_seq2seq", dtype=dtype) as var_scope:
        dtype = var_scope.dtype
        encoder_cell = EmbeddingWrapper(_encoder_copy(cell), embedding_classes=num_encoder_symbols,
                                        embedding_size=embedding_size)
        encoder_outputs, encoder_state = _static_rnn(encoder_cell, encoder_inputs, dtype)
        top = [tf.reshape(e, [-1, 1, cell.output_size]) for e in encoder_outputs]
        attention_states = tf.concat(top, 1)
        output_size = None
        if output_projection is None:
            cell = OutputProjectionWrapper(cell, num_decoder_symbols)
            output_size = num_decoder_symbols

        def build(flag: bool) -> tuple[list[tf.Tensor], Any]:
            return embedding_attention_decoder(
                decoder_inputs, encoder_state, attention_states, cell, num_decoder_symbols, embedding_size,
                num_heads=num_heads, output_size=output_size, output_projection=output_projection,
                feed_previous=flag, update_embedding_for_previous=isinstance(feed_previous, bool),
                initial_state_attention=initial_state_attention)
        return _by_feed_previous(feed_previous, build, encoder_state)


def one2many_rnn_seq2seq(encoder_inputs: Sequence[tf.Tensor], decoder_inputs_dict: dict[Any, Sequence[tf.Tensor]],
                         enc_cell: Any, dec_cells_dict: dict[Any, Any], num_encoder_symbols: int,
                         num_decoder_symbols_dict: dict[Any, int], embedding_size: int, feed_previous: Any = False,
                         dtype: Any = None, scope: Any = None) -> tuple[dict[Any, list], dict[Any, Any]]:
    """One embedding encoder, one :func:`embedding_rnn_decoder` per key (scope ``one2many_decoder_<key>``)."""
    outputs_dict: dict[Any, list] = {}
    state_dict: dict[Any, Any] = {}
    with v1.variable_scope(scope or "one2many_rnn_seq2seq", dtype=dtype) as var_scope:
        dtype = var_scope.dtype
        enc = EmbeddingWrapper(enc_cell, embedding_classes=num_encoder_symbols, embedding_size=embedding_size)
        _, encoder_state = _static_rnn(enc, encoder_inputs, dtype)
        for name, decoder_inputs in decoder_inputs_dict.items():
            symbols = num_decoder_symbols_dict[name]
            with v1.variable_scope(f"one2many_decoder_{name}"):
                dec_cell = OutputProjectionWrapper(dec_cells_dict[name], symbols)

                def build(flag: bool, inputs: Any = decoder_inputs, cell: Any = dec_cell,
                          n: int = symbols) -> tuple[list[tf.Tensor], Any]:
                    return embedding_rnn_decoder(inputs, encoder_state, cell, n, embedding_size, feed_previous=flag,
                                                 update_embedding_for_previous=isinstance(feed_previous, bool))
                outputs, state = _by_feed_previous(feed_previous, build, encoder_state)
            outputs_dict[name], state_dict[name] = outputs, state
    return outputs_dict, state_dict


def sequence_loss_by_example(logits: Sequence[tf.Tensor], targets: Sequence[tf.Tensor],
                             weights: Sequence[tf.Tensor], average_across_timesteps: bool = True,
                             softmax_loss_function: Callable[..., tf.Tensor] | None = None,
                             name: str | None = None) -> tf.Tensor:
    """Per-example ``sum_t w_t * xent(logits_t, targets_t)`` ``[batch]``, divided by ``sum_t w_t + 1e-12``
    when ``average_across_timesteps``. ``softmax_loss_function(labels=, logits=)`` replaces the sparse xent."""
    if len(targets) != len(logits) or len(weights) != len(logits):
        raise ValueError(f"logits, targets and weights must have the same length, got {len(logits)}, "
                         f"{len(targets)}, {len(weights)}")
    with tf.name_scope(name or "sequence_loss_by_example"):
        terms = []
        for logit, target, weight in zip(logits, targets, weights, strict=True):
            if softmax_loss_function is None:
                crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.reshape(target, [-1]),
                                                                          logits=logit)
            else:
                crossent = softmax_loss_function(labels=target, logits=logit)
            terms.append(crossent * weight)
        log_perps = tf.add_n(terms)
        if average_across_timesteps:
            log_perps /= tf.add_n(list(weights)) + 1e-12
    return log_perps


def sequence_loss(logits: Sequence[tf.Tensor], targets: Sequence[tf.Tensor], weights: Sequence[tf.Tensor],
                  average_across_timesteps: bool = True, average_across_batch: bool = True,
                  softmax_loss_function: Callable[..., tf.Tensor] | None = None,
                  name: str | None = None) -> tf.Tensor:
    """The sum over the batch of :func:`sequence_loss_by_example`, divided by the batch size if asked (a scalar)."""
    with tf.name_scope(name or "sequence_loss"):
        cost = tf.reduce_sum(sequence_loss_by_example(logits, targets, weights,
                                                      average_across_timesteps=average_across_timesteps,
                                                      softmax_loss_function=softmax_loss_function))
        if average_across_batch:
            return cost / tf.cast(tf.shape(targets[0])[0], cost.dtype)
        return cost


def model_with_buckets(encoder_inputs: Sequence[tf.Tensor], decoder_inputs: Sequence[tf.Tensor],
                       targets: Sequence[tf.Tensor], weights: Sequence[tf.Tensor],
                       buckets: Sequence[tuple[int, int]], seq2seq: Callable[..., tuple[list, Any]],
                       softmax_loss_function: Callable[..., tf.Tensor] | None = None,
                       per_example_loss: bool = False, name: str | None = None) -> tuple[list[list], list]:
    """One ``seq2seq(encoder_inputs[:e], decoder_inputs[:d])`` per bucket ``(e, d)``, sharing variables, and its
    loss over ``targets[:d]`` / ``weights[:d]``. Returns (outputs per bucket, losses per bucket)."""
    last_e, last_d = buckets[-1]
    for label, values, needed in (("encoder_inputs", encoder_inputs, last_e), ("decoder_inputs", decoder_inputs,
                                  last_d), ("targets", targets, last_d), ("weights", weights, last_d)):
        if len(values) < needed:
            raise ValueError(f"length of {label} ({len(values)}) must be at least that of the last bucket ({needed})")
    losses, outputs = [], []
    with tf.name_scope(name or "model_with_buckets"):
        for j, (enc_len, dec_len) in enumerate(buckets):
            with v1.variable_scope(v1.get_variable_scope(), reuse=True if j > 0 else None):
                bucket_outputs, _ = seq2seq(list(encoder_inputs[:enc_len]), list(decoder_inputs[:dec_len]))
                outputs.append(bucket_outputs)
                loss_fn = sequence_loss_by_example if per_example_loss else sequence_loss
                losses.append(loss_fn(bucket_outputs, list(targets[:dec_len]), list(weights[:dec_len]),
                                      softmax_loss_function=softmax_loss_function))
    return outputs, losses
