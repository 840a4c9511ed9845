"""Helpers of a PASCAL VOC converter (2017 style)."""
import collections
import fractions
import inspect
import xml.etree.cElementTree as ET


def flatten(items):
    for item in items:
        if isinstance(item, collections.Iterable) and not isinstance(item, str):
            for sub in flatten(item):
                yield sub
        else:
            yield item


def call_with_known_args(fn, config):
    """Calls fn with the entries of config that it takes (the estimator model_fn trick)."""
    argspec = inspect.getargspec(fn)
    return fn(**{k: v for k, v in config.items() if k in argspec.args})


def aspect_ratio(width, height):
    divisor = fractions.gcd(width, height)
    return width // divisor, height // divisor


def parse_annotation(path):
    root = ET.parse(path).getroot()
    objects = []
    for obj in root.getiterator('object'):
        fields = dict((child.tag, child) for child in obj.getchildren())
        box = fields['bndbox']
        objects.append((fields['name'].text, [int(box.find(k).text) for k in ('xmin', 'ymin', 'xmax', 'ymax')]))
    size = root.find('size')
    return int(size.find('width').text), int(size.find('height').text), objects
