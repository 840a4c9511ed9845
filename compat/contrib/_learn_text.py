"""``tf.contrib.learn.preprocessing`` of TensorFlow 1.15: text to fixed-length id arrays.

Text classifiers of 2016-2018 (the CNN sentence classifiers above all) built
their vocabulary with ``learn.preprocessing.VocabularyProcessor``: it splits
each document into tokens, gives every new token the next integer id (0 is
the unknown token ``<UNK>``), and turns a document into an ``int64`` array of
``max_document_length`` ids, zero-padded or cut. This module is that
behaviour written in plain Python and NumPy (TensorFlow is not needed):

* :func:`tokenizer`: the regular expression of TF 1.x (runs of capitals,
  capitalised words before another capital, and runs of word characters,
  apostrophes and hyphens);
* :class:`CategoricalVocabulary`: token -> id, with counts, ``freeze`` and
  ``trim(min_frequency, max_frequency)``;
* :class:`VocabularyProcessor`: ``fit`` / ``transform`` / ``fit_transform`` /
  ``reverse`` / ``save`` / ``restore``;
* :class:`ByteProcessor`: a document as its UTF-8 bytes (``uint8``), zero-padded.

``save`` pickles the processor as TF 1.x did; ``restore`` reads such a file
through an unpickler that only admits these classes (also under their
TF 1.x module names, so vocabularies written by TensorFlow 1 load) and plain
containers.
"""
from __future__ import annotations

import collections
import copyreg
import io
import pickle
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

__all__ = ["ByteProcessor", "CategoricalVocabulary", "VocabularyProcessor", "tokenizer"]

#: TF 1.x's token pattern: ``ABC`` (capitals not followed by lower case), ``Word`` before a capital, ``it's-a``.
TOKENIZER_RE = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z][a-z]+(?=[A-Z])|[\'\w\-]+", re.UNICODE)


def tokenizer(iterator: Iterable[str]) -> Iterator[list[str]]:
    """The tokens of each document of ``iterator`` (a list of strings per document)."""
    for value in iterator:
        yield TOKENIZER_RE.findall(value)


class CategoricalVocabulary:
    """Categories (tokens) to integer ids; id 0 is ``unknown_token``.

    While not frozen, :meth:`get` of a new category gives it the next id;
    once frozen, unknown categories map to 0. :meth:`add` also counts.
    """

    def __init__(self, unknown_token: str = "<UNK>", support_reverse: bool = True) -> None:
        self._unknown_token = unknown_token
        self._mapping: dict[Any, int] = {unknown_token: 0}
        self._support_reverse = support_reverse
        self._reverse_mapping: list[Any] = [unknown_token] if support_reverse else []
        self._freq: collections.defaultdict[Any, int] = collections.defaultdict(int)
        self._freeze = False

    def __len__(self) -> int:
        """The number of ids, the unknown token included."""
        return len(self._mapping)

    def freeze(self, freeze: bool = True) -> None:
        """Stop (or, with False, resume) giving ids to new categories."""
        self._freeze = freeze

    def get(self, category: Any) -> int:
        """The id of ``category``; a new one gets the next id unless frozen (then 0)."""
        if category not in self._mapping:
            if self._freeze:
                return 0
            self._mapping[category] = len(self._mapping)
            if self._support_reverse:
                self._reverse_mapping.append(category)
            self._freq[category] = 0
        return self._mapping[category]

    def add(self, category: Any, count: int = 1) -> None:
        """Count ``count`` occurrences of ``category`` (giving it an id if new and not frozen)."""
        if self.get(category) <= 0:
            return  # the unknown token, or a new category of a frozen vocabulary
        self._freq[category] += count

    def trim(self, min_frequency: int, max_frequency: int = -1) -> None:
        """Keep the categories seen more than ``min_frequency`` times (and, if ``max_frequency`` > 0,
        fewer than ``max_frequency`` times), renumbered by falling count, ties in name order."""
        # The name order first, then a stable sort on the count: ties stay alphabetical, as TF 1.x did.
        by_name = sorted(self._freq.items(), key=lambda item: (isinstance(item[0], str), item[0]))
        ranked = sorted(by_name, key=lambda item: item[1], reverse=True)
        self._mapping = {self._unknown_token: 0}
        if self._support_reverse:
            self._reverse_mapping = [self._unknown_token]
        kept: dict[Any, int] = {}
        for category, count in ranked:
            if max_frequency > 0 and count >= max_frequency:
                continue
            if count <= min_frequency:
                break  # the rest are rarer still
            self._mapping[category] = len(self._mapping)
            if self._support_reverse:
                self._reverse_mapping.append(category)
            kept[category] = count
        self._freq = collections.defaultdict(int, kept)

    def reverse(self, class_id: int) -> Any:
        """The category of ``class_id``.

        Raises:
            ValueError: the vocabulary was built with ``support_reverse=False``.
        """
        if not self._support_reverse:
            raise ValueError("CategoricalVocabulary.reverse: this vocabulary was built with support_reverse=False")
        return self._reverse_mapping[class_id]


class VocabularyProcessor:
    """Documents to ``int64`` arrays of ``max_document_length`` token ids (0: unknown or padding).

    Args:
        max_document_length: the length of every output array; longer documents are cut.
        min_frequency: after ``fit``, drop tokens seen ``min_frequency`` times or fewer.
        vocabulary: a :class:`CategoricalVocabulary` to start from (a new one if None).
        tokenizer_fn: documents -> token lists (default: :func:`tokenizer`).
    """

    def __init__(self, max_document_length: int, min_frequency: int = 0,
                 vocabulary: CategoricalVocabulary | None = None,
                 tokenizer_fn: Callable[[Iterable[str]], Iterable[list[str]]] | None = None) -> None:
        self.max_document_length = max_document_length
        self.min_frequency = min_frequency
        self.vocabulary_ = vocabulary if vocabulary is not None else CategoricalVocabulary()
        self._tokenizer = tokenizer_fn if tokenizer_fn is not None else tokenizer

    def fit(self, raw_documents: Iterable[str], unused_y: Any = None) -> VocabularyProcessor:
        """Give an id to every token of ``raw_documents``, trim rare ones, then freeze."""
        for tokens in self._tokenizer(raw_documents):
            for token in tokens:
                self.vocabulary_.add(token)
        if self.min_frequency > 0:
            self.vocabulary_.trim(self.min_frequency)
        self.vocabulary_.freeze()
        return self

    def fit_transform(self, raw_documents: Iterable[str], unused_y: Any = None) -> Iterator[np.ndarray]:
        """:meth:`fit`, then :meth:`transform` (``raw_documents`` is read twice: give a list)."""
        documents = list(raw_documents)
        self.fit(documents)
        return self.transform(documents)

    def transform(self, raw_documents: Iterable[str]) -> Iterator[np.ndarray]:
        """One ``int64`` array of shape ``[max_document_length]`` per document (a generator)."""
        for tokens in self._tokenizer(raw_documents):
            word_ids = np.zeros(self.max_document_length, np.int64)
            for index, token in enumerate(tokens[:self.max_document_length]):
                word_ids[index] = self.vocabulary_.get(token)
            yield word_ids

    def reverse(self, documents: Iterable[Iterable[int]]) -> Iterator[str]:
        """Id arrays back to space-joined tokens (padding shows as ``<UNK>``, as in TF 1.x)."""
        for item in documents:
            yield " ".join(str(self.vocabulary_.reverse(int(class_id))) for class_id in item)

    def save(self, filename: str) -> None:
        """Pickle this processor to ``filename`` (read back with :meth:`restore`)."""
        import tensorflow as tf
        with tf.io.gfile.GFile(filename, "wb") as f:
            f.write(pickle.dumps(self))

    @classmethod
    def restore(cls, filename: str) -> VocabularyProcessor:
        """The processor pickled in ``filename`` by :meth:`save` (or by TensorFlow 1.x)."""
        import tensorflow as tf
        with tf.io.gfile.GFile(filename, "rb") as f:
            data = f.read()
        restored = _RestrictedUnpickler(io.BytesIO(data)).load()
        if not isinstance(restored, cls):
            raise TypeError(f"VocabularyProcessor.restore({filename!r}): the file holds a "
                            f"{type(restored).__name__}, not a VocabularyProcessor")
        return restored

    # A pickle of TF 1.x holds its own tokenizer function; ours is restored in its place.
    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        if state.get("_tokenizer") is tokenizer:
            state["_tokenizer"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.__dict__.get("_tokenizer") is None:
            self._tokenizer = tokenizer


class ByteProcessor:
    """Documents to ``uint8`` arrays of their UTF-8 bytes, zero-padded or cut to ``max_document_length``."""

    def __init__(self, max_document_length: int) -> None:
        self.max_document_length = max_document_length

    def fit(self, x: Any) -> ByteProcessor:
        """Nothing to learn: bytes are their own ids."""
        return self

    def fit_transform(self, x: Iterable[str]) -> Iterator[np.ndarray]:
        return self.transform(x)

    def transform(self, x: Iterable[str]) -> Iterator[np.ndarray]:
        """One ``uint8`` array of shape ``[max_document_length]`` per document."""
        for document in x:
            raw = document.encode("utf-8") if isinstance(document, str) else bytes(document)
            ids = np.zeros(self.max_document_length, np.uint8)
            head = np.frombuffer(raw[:self.max_document_length], np.uint8)
            ids[:head.size] = head
            yield ids

    def reverse(self, x: Iterable[np.ndarray]) -> Iterator[str]:
        """Byte arrays back to text (the zero padding dropped)."""
        for data in x:
            yield bytes(np.asarray(data, np.uint8)).rstrip(b"\0").decode("utf-8")


#: Where TF 1.x defined these classes; a pickle it wrote names them there.
_TF1_TEXT_MODULE = "tensorflow.contrib.learn.python.learn.preprocessing.text"
_TF1_VOCAB_MODULE = "tensorflow.contrib.learn.python.learn.preprocessing.categorical_vocabulary"
_ALLOWED: dict[tuple[str, str], Any] = {
    **{(module, cls.__name__): cls for module in (__name__, _TF1_TEXT_MODULE, _TF1_VOCAB_MODULE)
       for cls in (VocabularyProcessor, CategoricalVocabulary, ByteProcessor)},
    (_TF1_TEXT_MODULE, "tokenizer"): tokenizer, (__name__, "tokenizer"): tokenizer,
    ("collections", "defaultdict"): collections.defaultdict, ("builtins", "int"): int,
    # typeshed does not list copyreg._reconstructor, which protocols 0 and 1 name.
    ("copyreg", "_reconstructor"): copyreg._reconstructor,  # type: ignore[attr-defined]
    ("builtins", "object"): object,
}


class _RestrictedUnpickler(pickle.Unpickler):
    """Loads only the processor classes and plain containers: a vocabulary file runs no other code."""

    def find_class(self, module: str, name: str) -> Any:
        import _compat_pickle
        # Python 2 names (__builtin__.long, copy_reg): what the default find_class maps before importing.
        module, name = _compat_pickle.NAME_MAPPING.get((module, name), (module, name))
        module = _compat_pickle.IMPORT_MAPPING.get(module, module)
        found = _ALLOWED.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f"VocabularyProcessor.restore: the file refers to {module}.{name}, "
                                         "which a vocabulary file does not hold")
        return found


def __getattr__(name: str) -> Any:
    # CategoricalProcessor (labels to ids) was the one other public class of the TF 1.x module.
    from compat.errors import LegacyAPIError
    if name.startswith("__"):
        raise AttributeError(name)
    if name in ("text", "categorical_vocabulary"):  # TF 1.x's source files of the package: the same names
        import sys
        return sys.modules[__name__]
    if name == "CategoricalProcessor":
        raise LegacyAPIError("tf.contrib.learn.preprocessing.CategoricalProcessor is not provided by the compat "
                             "runner: map labels with a dict or sklearn.preprocessing.LabelEncoder")
    raise LegacyAPIError(f"tf.contrib.learn.preprocessing has no attribute {name!r} (TensorFlow 1.15's "
                         "had VocabularyProcessor, CategoricalVocabulary, ByteProcessor and tokenizer)")
