"""Walk every ``tensorflow.estimator`` name of TensorFlow 1.15's API lists through a TF1 namespace.

usage: python -m compat run estimator_api_walk.py SYMBOLS.tsv MEMBERS.tsv   (the runner's ``tf``)
       python estimator_api_walk.py SYMBOLS.tsv MEMBERS.tsv --namespace     (compat.tf1.namespace.tf1_namespace())

Prints one JSON object: counts of names checked, and the lists of names that did
not resolve and of listed argument names a signature does not accept.
"""
import inspect
import json
import sys

PREFIX = "tensorflow.estimator"


def rows(path):
    with open(path) as handle:
        header = handle.readline().rstrip("\n").split("\t")
        for line in handle:
            row = dict(zip(header, line.rstrip("\n").split("\t")))
            if row["name"] == PREFIX or row["name"].startswith(PREFIX + "."):
                yield row


def resolve(tf, dotted):
    value = tf
    for part in dotted.split(".")[1:]:
        value = getattr(value, part)
    return value


def rejected_args(function, names, skip_self=False):
    """The listed argument names ``function``'s signature does not accept."""
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return []
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return []
    wanted = [n for n in names.split(",") if n and not (skip_self and n == "self")]
    return [n for n in wanted if n not in parameters]


def main(symbols, members, namespace):
    if namespace:
        from compat.tf1.namespace import tf1_namespace
        tf = tf1_namespace()
    else:
        import tensorflow as tf
    missing, bad_args, checked = [], [], {"symbols": 0, "members": 0}
    for row in rows(symbols):
        checked["symbols"] += 1
        try:
            value = resolve(tf, row["name"])
        except Exception as exc:  # any failure to resolve is what is counted
            missing.append(f"{row['name']}: {type(exc).__name__}: {exc}")
            continue
        target = value.__init__ if row["kind"] == "class" else value
        if row["kind"] in ("class", "function") and row["args"]:
            bad_args += [f"{row['name']}({n})" for n in rejected_args(target, row["args"], skip_self=True)]
    for row in rows(members):
        checked["members"] += 1
        owner, _, member = row["name"].rpartition(".")
        try:
            value = getattr(resolve(tf, owner), member)
        except Exception as exc:
            missing.append(f"{row['name']}: {type(exc).__name__}: {exc}")
            continue
        if row["kind"] == "method" and row["args"]:
            bad_args += [f"{row['name']}({n})" for n in rejected_args(value, row["args"], skip_self=True)]
    print(json.dumps({"checked": checked, "missing": missing, "bad_args": bad_args}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], "--namespace" in sys.argv[3:])
