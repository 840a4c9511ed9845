"""``tf.contrib.learn.preprocessing`` (``VocabularyProcessor`` and friends) and the checker's view of
names bound to ``tf.contrib`` modules (``from tensorflow.contrib import learn`` then ``learn.X``).

Expected ids are worked out by hand from the rules of TF 1.x: ids in order of first sight, 0 for the
unknown token and the padding, ``trim`` keeping counts above ``min_frequency`` by falling count.
"""
from __future__ import annotations

import pickle
import textwrap
from pathlib import Path

import numpy as np
import pytest

from compat.checker.check import check_script
from compat.contrib import _learn_text as text
from compat.errors import LegacyAPIError

DOCS = ["I love cats", "cats love dogs", "a dog"]


def test_tokenizer_splits_capitals_camel_case_and_word_runs() -> None:
    # "ABCdef": "ABC" is followed by lower case, so the capital run stops at "AB"; "Cdef" is a word run.
    assert list(text.tokenizer(["HelloWorld ABCdef it's x-y, NASA!"])) == [
        ["Hello", "World", "AB", "Cdef", "it's", "x-y", "NASA"]]


def test_fit_transform_numbers_tokens_in_order_of_first_sight_and_pads_with_zero() -> None:
    processor = text.VocabularyProcessor(4)
    ids = np.array(list(processor.fit_transform(DOCS)))
    # I=1 love=2 cats=3 dogs=4 a=5 dog=6 (0 is <UNK>)
    np.testing.assert_array_equal(ids, [[1, 2, 3, 0], [3, 2, 4, 0], [5, 6, 0, 0]])
    assert ids.dtype == np.int64
    assert len(processor.vocabulary_) == 7


def test_transform_after_fit_maps_unknown_tokens_to_zero_and_cuts_long_documents() -> None:
    processor = text.VocabularyProcessor(2).fit(DOCS)
    ids = list(processor.transform(["dogs bark loudly", "zebra"]))
    np.testing.assert_array_equal(ids, [[4, 0], [0, 0]])
    assert len(processor.vocabulary_) == 7  # frozen: "bark" got no id


def test_min_frequency_keeps_frequent_tokens_ties_alphabetical() -> None:
    processor = text.VocabularyProcessor(3, min_frequency=1).fit(DOCS)
    # counts: cats 2, love 2, the rest 1 -> only cats and love stay, tied, so alphabetical.
    assert processor.vocabulary_.reverse(1) == "cats" and processor.vocabulary_.reverse(2) == "love"
    np.testing.assert_array_equal(list(processor.transform(["love cats a"])), [[2, 1, 0]])
    assert len(processor.vocabulary_) == 3


def test_trim_max_frequency_drops_the_most_frequent() -> None:
    vocabulary = text.CategoricalVocabulary()
    for word, count in (("the", 9), ("cat", 3), ("sat", 2)):
        vocabulary.add(word, count)
    vocabulary.trim(min_frequency=0, max_frequency=5)
    assert [vocabulary.get(w) for w in ("cat", "sat")] == [1, 2]
    vocabulary.freeze()
    assert vocabulary.get("the") == 0


def test_reverse_gives_back_the_tokens_with_unk_for_padding() -> None:
    processor = text.VocabularyProcessor(4)
    ids = list(processor.fit_transform(DOCS))
    assert list(processor.reverse(ids[:1])) == ["I love cats <UNK>"]


def test_save_and_restore_round_trip(tmp_path: Path) -> None:
    processor = text.VocabularyProcessor(5, min_frequency=0)
    processor.fit(DOCS)
    processor.save(str(tmp_path / "vocab"))
    restored = text.VocabularyProcessor.restore(str(tmp_path / "vocab"))
    np.testing.assert_array_equal(list(restored.transform(["a dog love"])), [[5, 6, 2, 0, 0]])
    assert restored.max_document_length == 5


def test_restore_reads_a_pickle_naming_the_tensorflow_1_module(tmp_path: Path) -> None:
    # Protocol 0 names classes as text; a vocabulary written by TF 1.x names its own module.
    processor = text.VocabularyProcessor(3).fit(DOCS)
    data = pickle.dumps(processor, protocol=0).replace(
        b"compat.contrib._learn_text", b"tensorflow.contrib.learn.python.learn.preprocessing.text")
    assert b"tensorflow.contrib.learn" in data
    (tmp_path / "vocab").write_bytes(data)
    restored = text.VocabularyProcessor.restore(str(tmp_path / "vocab"))
    np.testing.assert_array_equal(list(restored.transform(["cats love I"])), [[3, 2, 1]])


def test_restore_refuses_a_pickle_that_would_run_other_code(tmp_path: Path) -> None:
    class Evil:
        def __reduce__(self) -> tuple:
            return (print, ("never printed",))

    (tmp_path / "vocab").write_bytes(pickle.dumps(Evil()))
    with pytest.raises(pickle.UnpicklingError, match="builtins.print"):
        text.VocabularyProcessor.restore(str(tmp_path / "vocab"))


def test_byte_processor_pads_utf8_bytes_and_reverses() -> None:
    processor = text.ByteProcessor(6)
    ids = list(processor.transform(["hé", "abcdefgh"]))
    np.testing.assert_array_equal(ids[0], list("hé".encode()) + [0, 0, 0])
    np.testing.assert_array_equal(ids[1], list(b"abcdef"))
    assert list(processor.reverse(ids)) == ["hé", "abcdef"]


def test_other_names_raise_naming_what_there_was() -> None:
    with pytest.raises(LegacyAPIError, match="LabelEncoder"):
        _ = text.CategoricalProcessor
    with pytest.raises(LegacyAPIError, match="VocabularyProcessor"):
        _ = text.NoSuchName


def test_learn_serves_preprocessing() -> None:
    from compat.contrib import learn
    assert learn.preprocessing.VocabularyProcessor is text.VocabularyProcessor
    assert text.text is text and text.categorical_vocabulary.CategoricalVocabulary is text.CategoricalVocabulary


def test_check_classifies_names_reached_through_a_contrib_module_alias(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""\
        import tensorflow as tf
        from tensorflow.contrib import learn
        from tensorflow.contrib import rnn as contrib_rnn
        import tensorflow.contrib.crf as crf
        processor = learn.preprocessing.VocabularyProcessor(10)
        cell = contrib_rnn.BasicLSTMCell(4)
        estimator = learn.DNNEstimator(hidden_units=[3])
        bad = crf.no_such_function
        """))
    (tmp_path / "imports.py").write_text(textwrap.dedent("""\
        from tensorflow.contrib.learn.preprocessing import VocabularyProcessor
        from tensorflow.contrib.learn.python.learn.preprocessing import text
        from tensorflow.contrib.factorization import KMeans
        """))
    assert check_script(tmp_path / "imports.py").ok
    report = check_script(script)
    verdicts = {f.construct: f.status for f in report.findings}
    assert verdicts["learn.preprocessing.VocabularyProcessor"] == "bridged"
    assert verdicts["contrib_rnn.BasicLSTMCell"] == "bridged"
    assert {f.construct for f in report.unsupported} == {"learn.DNNEstimator", "crf.no_such_function"}
