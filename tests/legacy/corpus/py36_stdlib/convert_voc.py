"""Reads VOC annotations in a worker thread and prints a summary (Python 3.6 era).

usage: convert_voc.py ANNOTATION_DIR OUTPUT_DIR
"""
from __future__ import print_function

import base64
import json
import os
import sys
import threading
import time
from collections import Mapping, OrderedDict

import voc_utils

start = time.clock()
annotation_dir, output_dir = sys.argv[1:3]
try:
    os.makedirs(output_dir)
except OSError as e:
    if e.errno != os.errno.EEXIST:
        raise
config = json.loads('{"min_size": 8, "keep_difficult": false}', encoding='utf-8')
assert isinstance(config, Mapping)

results = OrderedDict()


def worker(files):
    for name in files:
        results[name] = voc_utils.parse_annotation(os.path.join(annotation_dir, name))


thread = threading.Thread(target=worker, args=(sorted(os.listdir(annotation_dir)),))
thread.start()
while thread.isAlive():
    thread.join(0.01)

kept_boxes = []
for name, (width, height, objects) in results.items():
    kept = [o for o in objects
            if voc_utils.call_with_known_args(lambda box, min_size: box[2] - box[0] >= min_size,
                                              dict(config, name=o[0], box=o[1]))]
    print("image", name, "aspect %d:%d" % voc_utils.aspect_ratio(width, height),
          "objects", len(objects), "kept", len(kept))
    kept_boxes.extend(box for _, box in kept)
print("coords", list(voc_utils.flatten(kept_boxes)))
print("token", base64.encodestring(json.dumps(config, sort_keys=True).encode()).decode().strip())
with open(os.path.join(output_dir, "summary.json"), "w") as out:
    json.dump({"images": len(results), "boxes": len(kept_boxes)}, out)
print("elapsed_ok", time.clock() - start >= 0)
