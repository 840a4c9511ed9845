"""A 2017 NMT-tutorial-style model: dynamic_rnn encoder, attention decoder, beam search at inference."""
import argparse
import os

import numpy as np
import tensorflow as tf

PAD, SOS, EOS = 0, 1, 2


def build(mode, params, src, src_len, tgt_in=None, tgt_len=None):
    batch_size = tf.shape(src)[0]
    with tf.variable_scope("embeddings"):
        embedding_encoder = tf.get_variable("embedding_encoder", [params.vocab, params.units])
        embedding_decoder = tf.get_variable("embedding_decoder", [params.vocab, params.units])
    with tf.variable_scope("dynamic_seq2seq"):
        with tf.variable_scope("encoder"):
            encoder_emb_inp = tf.nn.embedding_lookup(embedding_encoder, src)
            encoder_cell = tf.nn.rnn_cell.BasicLSTMCell(params.units)
            encoder_outputs, encoder_state = tf.nn.dynamic_rnn(
                encoder_cell, encoder_emb_inp, sequence_length=src_len, dtype=tf.float32)
        with tf.variable_scope("decoder") as decoder_scope:
            memory, memory_len, init_state, beam_batch = encoder_outputs, src_len, encoder_state, batch_size
            if mode == "infer":
                memory = tf.contrib.seq2seq.tile_batch(encoder_outputs, multiplier=params.beam_width)
                memory_len = tf.contrib.seq2seq.tile_batch(src_len, multiplier=params.beam_width)
                init_state = tf.contrib.seq2seq.tile_batch(encoder_state, multiplier=params.beam_width)
                beam_batch = batch_size * params.beam_width
            attention_mechanism = tf.contrib.seq2seq.BahdanauAttention(
                params.units, memory, memory_sequence_length=memory_len, normalize=True)
            cell = tf.contrib.seq2seq.AttentionWrapper(
                tf.contrib.rnn.BasicLSTMCell(params.units), attention_mechanism,
                attention_layer_size=params.units, alignment_history=False, name="attention")
            decoder_initial_state = cell.zero_state(beam_batch, tf.float32).clone(cell_state=init_state)
            output_layer = tf.layers.Dense(params.vocab, use_bias=False, name="output_projection")
            if mode == "train":
                decoder_emb_inp = tf.nn.embedding_lookup(embedding_decoder, tgt_in)
                helper = tf.contrib.seq2seq.TrainingHelper(decoder_emb_inp, tgt_len)
                my_decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, decoder_initial_state)
                outputs, _, _ = tf.contrib.seq2seq.dynamic_decode(my_decoder, scope=decoder_scope)
                return output_layer(outputs.rnn_output)
            start_tokens = tf.fill([batch_size], SOS)
            my_decoder = tf.contrib.seq2seq.BeamSearchDecoder(
                cell=cell, embedding=embedding_decoder, start_tokens=start_tokens, end_token=EOS,
                initial_state=decoder_initial_state, beam_width=params.beam_width, output_layer=output_layer,
                length_penalty_weight=params.length_penalty_weight)
            outputs, _, _ = tf.contrib.seq2seq.dynamic_decode(
                my_decoder, maximum_iterations=params.max_len, scope=decoder_scope)
            return outputs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out_dir", required=True)
    parser.add_argument("--units", type=int, default=8)
    parser.add_argument("--vocab", type=int, default=8)
    parser.add_argument("--beam_width", type=int, default=3)
    parser.add_argument("--length_penalty_weight", type=float, default=0.6)
    parser.add_argument("--max_len", type=int, default=6)
    parser.add_argument("--steps", type=int, default=30)
    params = parser.parse_args()

    rng = np.random.RandomState(0)
    src = rng.randint(3, params.vocab, size=(6, 4)).astype(np.int32)
    src_len = np.array([4, 3, 2, 4, 3, 4], np.int32)
    tgt_out = np.concatenate([src[:, ::-1], np.full((6, 1), EOS)], 1).astype(np.int32)
    tgt_in = np.concatenate([np.full((6, 1), SOS), src[:, ::-1]], 1).astype(np.int32)
    tgt_len = np.full(6, 5, np.int32)

    train_graph = tf.Graph()
    with train_graph.as_default():
        tf.set_random_seed(1)
        s, sl = tf.placeholder(tf.int32, [None, None]), tf.placeholder(tf.int32, [None])
        ti, tl = tf.placeholder(tf.int32, [None, None]), tf.placeholder(tf.int32, [None])
        to = tf.placeholder(tf.int32, [None, None])
        logits = build("train", params, s, sl, ti, tl)
        crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=to, logits=logits)
        target_weights = tf.sequence_mask(tl, tf.shape(to)[1], dtype=logits.dtype)
        loss = tf.reduce_sum(crossent * target_weights) / tf.to_float(tf.shape(s)[0])
        seq_loss = tf.contrib.seq2seq.sequence_loss(logits, to, target_weights)
        train_op = tf.train.AdamOptimizer(0.05).minimize(loss)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            feed = {s: src, sl: src_len, ti: tgt_in, tl: tgt_len, to: tgt_out}
            for step in range(params.steps):
                _, value = sess.run([train_op, loss], feed)
                if step % 10 == 0:
                    print("step %d loss %.4f" % (step, value))
            print("per-token loss %.6f" % sess.run(seq_loss, feed))
            path = saver.save(sess, os.path.join(params.out_dir, "translate.ckpt"))

    infer_graph = tf.Graph()
    with infer_graph.as_default():
        s, sl = tf.placeholder(tf.int32, [None, None]), tf.placeholder(tf.int32, [None])
        outputs = build("infer", params, s, sl)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            saver.restore(sess, path)
            ids, scores = sess.run([outputs.predicted_ids, outputs.beam_search_decoder_output.scores],
                                   {s: src[:2], sl: src_len[:2]})
            for b in range(2):
                print("source %s" % " ".join(str(t) for t in src[b, :src_len[b]]))
                print("beam0 %s" % " ".join(str(t) for t in ids[b, :, 0]))
                print("score0 %.6f" % scores[b, -1, 0])


if __name__ == "__main__":
    main()
