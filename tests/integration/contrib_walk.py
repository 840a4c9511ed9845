"""Run under ``python -m compat run``: resolve every ``tf.contrib`` name of TF 1.15 and write the outcomes.

argv: the contrib symbols TSV, the contrib module list, the output JSON. For
each module: ``provided`` (the module resolves) and, per name, ``ok``,
``refused`` (LegacyAPIError / LegacyImportError, with the message) or
``missing`` (any other error).
"""
import csv
import json
import sys

import tensorflow as tf


def outcome(target, name):
    try:
        getattr(target, name)
    except Exception as exc:  # anything but a resolution is a finding
        refused = type(exc).__name__ in ("LegacyAPIError", "LegacyImportError")
        return ("refused" if refused else "missing"), f"{type(exc).__name__}: {exc}"
    return "ok", ""


def main():
    symbols_path, modules_path, out_path = sys.argv[1:4]
    with open(modules_path) as handle:
        modules = [line.strip() for line in handle if line.strip()]
    names = {module: [] for module in modules}
    with open(symbols_path, newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
            parts = row["name"].split(".")
            if len(parts) == 4 and parts[2] in names:
                names[parts[2]].append(parts[3])
    report = {}
    for module in modules:
        status, message = outcome(tf.contrib, module)
        entry = {"module": status, "message": message, "names": {}}
        if status == "ok":
            bridge = getattr(tf.contrib, module)
            entry["names"] = {name: outcome(bridge, name) for name in names[module]}
        report[module] = entry
    with open(out_path, "w") as handle:
        json.dump(report, handle, indent=1)


main()
