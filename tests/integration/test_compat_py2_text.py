"""A Python 2 text-summarisation project under ``python -m compat run``, in the style of
pointer-generator's data.py / batcher.py: a reader thread fills a queue from the text of
``tf.train.Example`` records through a generator that ends when ``it.next()`` runs out
(PEP 479), a block indented with a tab and spaces, ``async`` as a name, and ``sess.run``
of string tensors. ``compat check`` predicts each of them."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.scripts import compat_run, write

from compat.checker import check

DATA = '''
    import glob
    import struct
    from tensorflow.core.example import example_pb2

    SENTENCE_START = '<s>'
    SENTENCE_END = '</s>'


    def example_generator(data_path, single_pass):
      while True:
        for f in sorted(glob.glob(data_path)):
          reader = open(f, 'rb')
          while True:
            len_bytes = reader.read(8)
            if not len_bytes: break
            str_len = struct.unpack('q', len_bytes)[0]
            example_str = struct.unpack('%ds' % str_len, reader.read(str_len))[0]
            yield example_pb2.Example.FromString(example_str)
        if single_pass:
          break


    def abstract2sents(abstract):
      cur = 0
      sents = []
      while True:
        try:
          start_p = abstract.index(SENTENCE_START, cur)
          end_p = abstract.index(SENTENCE_END, start_p + 1)
          cur = end_p + len(SENTENCE_END)
          sents.append(abstract[start_p+len(SENTENCE_START):end_p].strip())
        except ValueError as e:
          return sents
'''

# The `continue` line is indented with a tab (column 8 for Python 2), its `if` with 6 spaces.
BATCHER = '''
    import Queue
    import threading
    import data


    class Batcher(object):

      def __init__(self, data_path, vocab, async=False):
        self._data_path = data_path
        self._vocab = vocab
        self.async = async
        self._queue = Queue.Queue(100)
        self._thread = threading.Thread(target=self.fill_queue)
        self._thread.daemon = True
        self._thread.start()

      def fill_queue(self):
        input_gen = self.text_generator(data.example_generator(self._data_path, True))
        while True:
          try:
            (article, abstract) = input_gen.next()
          except StopIteration:
            self._queue.put(None)
            break
          ids = [self._vocab.get(w, 0) for w in article.split(' ')]
          self._queue.put((article, ids, data.abstract2sents(abstract)))

      def text_generator(self, example_generator):
        while True:
          e = example_generator.next()
          article_text = e.features.feature['article'].bytes_list.value[0]
          abstract_text = e.features.feature['abstract'].bytes_list.value[0]
          if len(article_text) == 0:
    TAB_continue
          else:
            yield (article_text, abstract_text)

      def next_batch(self):
        return self._queue.get(timeout=60)
'''

MAIN = '''
    import struct
    import tensorflow as tf
    from tensorflow.core.example import example_pb2
    import batcher

    PAIRS = [("the cat sat", "<s> a cat . </s> <s> it sat . </s>"),
             ("", "<s> empty </s>"),
             ("dogs run fast", "<s> dogs run . </s>")]

    with open('train.bin', 'wb') as writer:
      for article, abstract in PAIRS:
        ex = example_pb2.Example()
        ex.features.feature['article'].bytes_list.value.extend([article])
        ex.features.feature['abstract'].bytes_list.value.extend([abstract])
        s = ex.SerializeToString()
        writer.write(struct.pack('q', len(s)))
        writer.write(struct.pack('%ds' % len(s), s))

    vocab = {'the': 1, 'cat': 2, 'sat': 3, 'dogs': 4, 'run': 5}
    b = batcher.Batcher('train.bin', vocab, async=True)
    while True:
      item = b.next_batch()
      if item is None:
        break
      article, ids, sents = item
      print "row %s|%s|%s" % (article, ids, '/'.join(sents))
    print "async", b.async

    words = tf.constant(["x y", "z"])
    with tf.Session() as sess:
      w = sess.run(words)
      print "split", w[0].split(' '), w[1] + "!"
      joined = sess.run(tf.string_join([words[0], tf.constant("?")]))
      print "joined", joined + "!"
      name = tf.placeholder(tf.string, [])
      print "fed", sess.run(tf.string_join([name, "!"]), feed_dict={name: "caf\\xc3\\xa9".decode("utf-8")})
    print "done"
'''


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    write(tmp_path / "data.py", DATA)
    batcher = write(tmp_path / "batcher.py", BATCHER)
    batcher.write_text(batcher.read_text().replace("TAB_continue", "\tcontinue"))
    return write(tmp_path / "run_summarization.py", MAIN)


@pytest.mark.timeout(200)
def test_python2_summarisation_reader_runs(project: Path) -> None:
    done = compat_run(project)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    # What Python 2 printed: the articles split on ' ' into vocabulary ids (str keys), the
    # abstracts' sentences between the str tags, the empty article skipped, then the end.
    assert [line for line in lines if line.startswith("row ")] == [
        "row the cat sat|[1, 2, 3]|a cat ./it sat .",
        "row dogs run fast|[4, 5, 0]|dogs run .",
    ]
    assert "async True" in lines
    assert "split ['x', 'y'] z!" in lines
    assert "joined x y?!" in lines
    assert "fed café!" in lines  # a str fed to a string placeholder, fetched back as text
    assert lines[-1] == "done"


@pytest.mark.timeout(60)
def test_check_predicts_each_change(project: Path) -> None:
    report = check.check_script(project)
    found = {(f.path, f.line, f.construct) for f in report.findings}
    assert ("batcher.py", 8, "async used as a name") in found
    assert ("batcher.py", 30, "example_generator.next() in generator text_generator()") in found
    assert ("batcher.py", 31, "e.features.feature['article'].bytes_list.value[0]") in found
    assert ("batcher.py", 34, "tabs and spaces mixed in indentation") in found
    assert ("run_summarization.py", 20, "async used as a keyword argument") in found
    assert ("run_summarization.py", 31, "sess.run(words)") in found
    assert report.ok
