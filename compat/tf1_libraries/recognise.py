"""Which installed packages are TensorFlow 1 code: the rule of :class:`LegacyPackages`.

A top-level package imported by the script is served as legacy code when

1. the user names it: ``python -m compat run --legacy-package NAME`` (its import
   name or its distribution's name);
2. it is a known TF1-era library (:data:`compat.tf1_libraries.known.KNOWN_LIBRARIES`)
   in a release before the one that moved to TensorFlow 2; or
3. its installed metadata requires TensorFlow 1 and no TensorFlow 2: a
   ``Requires-Dist`` on ``tensorflow`` (or ``tensorflow-gpu`` / ``-cpu``),
   extras included, whose versions exclude every 2.x
   (``tensorflow (<2.0.0,>=1.15.0); extra == 'tensorflow'`` of dm-sonnet 1.36).

The runner's own stack (TensorFlow and its Keras, estimator, slim and
probability packages, this project) is never legacy code. Importing this module
imports the standard library only; metadata is read on first use.
"""
from __future__ import annotations

import importlib.metadata as metadata
import re
import sys
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from compat.tf1_libraries.known import by_module

__all__ = ["NEVER_LEGACY", "Decision", "LegacyPackages", "refusal", "requires_tensorflow_1"]

#: Top-level modules the runner itself runs on: never served as legacy code, even when named.
NEVER_LEGACY = frozenset({
    "tensorflow", "tensorflow_estimator", "tf_keras", "keras", "tf_slim", "tensorflow_probability",
    "numpy", "scipy", "compat", "tf1_pipelines"})

#: The distributions that are TensorFlow itself.
_TENSORFLOW_DISTRIBUTIONS = frozenset({"tensorflow", "tensorflow-gpu", "tensorflow-cpu"})
#: Versions a TF1-only requirement accepts some of, and a TF2-capable one accepts too.
_TF1_PROBES = ("1.0.0", "1.4.0", "1.8.0", "1.12.0", "1.15.0")
_TF2_PROBES = ("2.0.0", "2.4.0", "2.16.0", "2.21.0")


def refusal(name: str) -> str | None:
    """Why ``--legacy-package name`` is refused (a package the runner itself runs on), or None."""
    if name.split(".")[0] in NEVER_LEGACY or _canonical(name) in _TENSORFLOW_DISTRIBUTIONS:
        return (f"--legacy-package {name}: the runner itself runs on {name}, so it cannot be served as "
                "TensorFlow 1 code (name the library built on it instead)")
    return None


@dataclass(frozen=True)
class Decision:
    """Whether a top-level package is legacy code, and why (for ``compat check``)."""

    legacy: bool
    reason: str = ""


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requires_tensorflow_1(requirements: Iterable[str]) -> str | None:
    """The first requirement of ``requirements`` (``Requires-Dist`` lines) on TensorFlow 1 only, or None."""
    from packaging.requirements import InvalidRequirement, Requirement  # TensorFlow's own dependency
    for line in requirements:
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            continue
        spec = requirement.specifier
        if _canonical(requirement.name) not in _TENSORFLOW_DISTRIBUTIONS or not str(spec):
            continue
        if any(spec.contains(v, prereleases=True) for v in _TF1_PROBES) and not any(
                spec.contains(v, prereleases=True) for v in _TF2_PROBES):
            return line
    return None


def _older_than(version: str, bound: str) -> bool:
    from packaging.version import InvalidVersion, Version
    try:
        return Version(version) < Version(bound)
    except InvalidVersion:
        return False


class LegacyPackages:
    """Decides, once per top-level name, whether an installed package is TensorFlow 1 code.

    Args:
        named: the names given with ``--legacy-package`` (import or distribution names).

    Raises:
        ValueError: a name of :data:`NEVER_LEGACY` is given.
    """

    def __init__(self, named: Iterable[str] = ()) -> None:
        self.named = frozenset(named)
        self._named_canonical = frozenset(_canonical(n) for n in self.named)
        refused = [message for message in map(refusal, sorted(self.named)) if message is not None]
        if refused:
            raise ValueError(refused[0])
        self._decided: dict[str, Decision] = {}
        self._distributions: Mapping[str, list[str]] | None = None
        self._path_seen: tuple[str, ...] = ()
        # Reading metadata imports modules (email.parser): those imports are not decided meanwhile.
        self._deciding = threading.local()

    def is_legacy(self, module: str) -> bool:
        """True if ``module``'s top-level package is served as TensorFlow 1 code."""
        return self.decide(module).legacy

    def decide(self, module: str) -> Decision:
        """The :class:`Decision` for ``module``'s top-level package (cached)."""
        top = module.split(".")[0]
        decided = self._decided.get(top)
        if decided is not None:
            return decided
        if top in sys.stdlib_module_names or top in NEVER_LEGACY:
            decided = Decision(False)
        elif getattr(self._deciding, "active", False):
            return Decision(False)  # an import made while reading metadata: not a package of the script
        else:
            self._deciding.active = True
            try:
                decided = self._decide(top)
            finally:
                self._deciding.active = False
        self._decided[top] = decided
        return decided

    def _distributions_of(self, top: str) -> list[str]:
        # Read again when sys.path changed (a folder the script added may hold the package).
        if self._distributions is None or (top not in self._distributions and tuple(sys.path) != self._path_seen):
            self._path_seen = tuple(sys.path)
            self._distributions = metadata.packages_distributions()
        return list(self._distributions.get(top, []))

    def _decide(self, top: str) -> Decision:
        distributions = self._distributions_of(top)
        if top in self.named or self._named_canonical.intersection(_canonical(d) for d in distributions):
            return Decision(True, f"named with --legacy-package {top}")
        for name in distributions:
            decision = self._by_distribution(top, name)
            if decision is not None:
                return decision
        return Decision(False)

    def _by_distribution(self, top: str, name: str) -> Decision | None:
        try:
            version = metadata.version(name)
            requirements = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            return None
        known = by_module(top)
        if known is not None and _canonical(known.distribution) == _canonical(name):
            if known.below and not _older_than(version, known.below):
                return Decision(False)
            return Decision(True, f"{name} {version} is a TensorFlow 1 library (its last TF1 release: "
                                  f"{known.last_tf1_release})")
        requirement = requires_tensorflow_1(requirements)
        if requirement is not None:
            return Decision(True, f"{name} {version} requires TensorFlow 1 ({requirement})")
        return None
