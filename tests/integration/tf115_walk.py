"""Walk TensorFlow 1.15's public API as a legacy script sees ``tf``; run under ``python -m compat run``.

Usage: ``python -m compat run tf115_walk.py SYMBOLS_TSV MEMBERS_TSV OUT_JSON``.

For every row of the two tables (module-level symbols, class members) it
records one outcome: ``"ok"`` (the name resolves), ``"refused"`` (a
``LegacyAPIError`` whose message says what to use), or ``"missing"`` (any
other error: a bare ``AttributeError`` and the like), with the message. For
every function, method and class with TF 1.15 argument names it records the
names the served object's signature does not accept (by name or through
``**kwargs``). The JSON written holds the rows with problems and the counts.
"""
import csv
import inspect
import json
import sys

import tensorflow as tf

from compat.tf1.signatures import REFUSED_ARGS

#: Attributes the table lists that exist only on graph tensors (instances), never on their classes.
INSTANCE_ONLY = frozenset({"op", "graph", "device", "consumers", "value_index"})


def read_rows(path):
    """The rows of a TSV table as dicts (header: name, kind, args, varargs, keywords, mtype)."""
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


def resolve(dotted):
    """(outcome, value or message) for ``tensorflow.a.b`` looked up on the script's ``tf``."""
    parts = dotted.split(".")[1:]
    target = tf
    for part in parts:
        try:
            target = getattr(target, part)
        except Exception as exc:  # anything but a resolution is a finding
            refused = type(exc).__name__ in ("LegacyAPIError", "LegacyImportError")
            return ("refused" if refused else "missing"), f"{type(exc).__name__}: {exc}"
    refusal = getattr(target, "_compat_refusal", None) if isinstance(target, property) else None
    if refusal is not None:
        return "refused", refusal
    return "ok", target


def accepted_names(value):
    """The set of keyword names ``value`` accepts, or None if it takes ``**kwargs`` or has no signature."""
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):
        return None
    names = set()
    for parameter in signature.parameters.values():
        if parameter.kind is inspect.Parameter.VAR_KEYWORD:
            return None
        if parameter.kind is not inspect.Parameter.VAR_POSITIONAL:
            names.add(parameter.name)
    return names


def rejected_args(value, row, is_member):
    """The TF 1.15 argument names of ``row`` that ``value`` does not accept."""
    wanted = [a for a in row["args"].split(",") if a]
    if is_member and wanted and wanted[0] in ("self", "cls"):
        wanted = wanted[1:]
    if not wanted:
        return []
    if inspect.isclass(value):
        value = value.__init__
    names = accepted_names(value)
    if names is None:
        return []
    return [a for a in wanted if a not in names and a not in ("self", "cls")]


def walk(rows, is_member):
    """Counts and the problem rows of one table."""
    counts = {"ok": 0, "refused": 0, "missing": 0, "exempt": 0, "with_args": 0, "args_ok": 0, "args_refused": 0}
    problems = []
    for row in rows:
        name = row["name"]
        if row["kind"] == "module" and name == "tensorflow":
            counts["ok"] += 1
            continue
        if is_member and name.rsplit(".", 1)[1] in INSTANCE_ONLY:
            counts["exempt"] += 1
            continue
        outcome, value = resolve(name)
        counts[outcome] += 1
        if outcome != "ok":
            problems.append({"name": name, "outcome": outcome, "message": value})
            continue
        if not row["args"]:
            continue
        counts["with_args"] += 1
        rejected = rejected_args(value, row, is_member)
        if not rejected:
            counts["args_ok"] += 1
            continue
        why = REFUSED_ARGS.get(name[len("tensorflow."):], {})
        if all(a in why for a in rejected):
            counts["args_refused"] += 1
            continue
        problems.append({"name": name, "outcome": "args", "message": ",".join(rejected)})
    return {"counts": counts, "problems": problems}


def main():
    symbols, members, out = sys.argv[1:4]
    result = {"symbols": walk(read_rows(symbols), False), "members": walk(read_rows(members), True)}
    with open(out, "w") as handle:
        json.dump(result, handle, indent=1)


main()
