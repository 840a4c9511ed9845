"""The ``random`` module as old code saw it: Python 2's draws, and Python 3.10's removed arguments.

**Python 2 modules.** Python 2.7 and Python 3 share the Mersenne Twister and
``random.random()`` (the same floats after the same integer seed), but Python
3.2 changed how ``shuffle``, ``choice``, ``randrange``/``randint`` and ``sample``
turn the generator into indices (``_randbelow`` on ``getrandbits`` instead of
``int(random() * n)``). A Python 2 script that seeds ``random`` and shuffles its
file list to split train and test data gets another split on Python 3. In a
translated Python 2 module, the module-level functions and ``random.Random``
are Python 2.7's (:data:`PY2`, :class:`Py2Random`), drawing from the same
generator as the rest of the process, so every seeded sequence is Python 2's.

**Python 3 modules.** Python 3.11 removed ``shuffle``'s ``random`` argument and
``sample`` of a ``set`` (deprecated in 3.9). The script's own
``random.shuffle(x, f)`` shuffles as Python 3.10 did with ``f``, and
``random.sample(s, k)`` of a set samples ``tuple(s)``, as 3.10 did (:data:`PY310`).

:class:`RandomPass` rewrites the calls (``random.shuffle(...)``, ``from random
import shuffle``) to ``__compat__.random2.shuffle(...)`` / ``__compat__.random310...``.
Other callers (NumPy, libraries) keep Python's ``random``.
"""
from __future__ import annotations

import ast
import math
import random as _random
import types
from collections.abc import Callable, MutableSequence
from collections.abc import Set as AbstractSet
from typing import Any

from compat.surfaces.source_pass import SourcePass, helper, import_aliases, import_statements, short

__all__ = ["PY2", "PY310", "Py2Random", "RandomPass"]

#: Bits in a float: widths from 2**53 up are drawn from getrandbits (Python 2.7's ``_maxwidth``).
_MAXWIDTH = 1 << 53

PY2_ACTION = ("Python 2's random.{name}: the same draws as Python 2 for the same seed (Python 3 turns the "
              "generator into indices another way)")
PY310_ACTION = {
    "shuffle": "shuffle(x, random) as Python 3.10 did (the argument was removed in 3.11)",
    "sample": "sample of a set samples tuple(set) as Python 3.10 did (removed in 3.11); sequences unchanged",
}


# --------------------------------------------------------------------------
# Python 2.7's algorithms, on any generator's random() and getrandbits()
# --------------------------------------------------------------------------

def _randbelow(getrandbits: Callable[[int], int], n: int) -> int:
    """An int in [0, n) from ``getrandbits``, as Python 2.7 drew it for widths of 2**53 and more."""
    bits = int(1.00001 + math.log(n - 1, 2.0))
    value = getrandbits(bits)
    while value >= n:
        value = getrandbits(bits)
    return value


def _integer(value: Any, what: str) -> int:
    as_int = int(value)
    if as_int != value:
        raise ValueError(f"non-integer {what} for randrange()")
    return as_int


def randrange(gen: _random.Random, start: Any, stop: Any = None, step: Any = 1) -> int:
    """``randrange`` of Python 2.7 on the generator ``gen``; an int in ``range(start, stop, step)``."""
    istart = _integer(start, "arg 1")
    if stop is None:
        if istart > 0:
            return _randbelow(gen.getrandbits, istart) if istart >= _MAXWIDTH else int(gen.random() * istart)
        raise ValueError("empty range for randrange()")
    istop = _integer(stop, "stop")
    width = istop - istart
    if step == 1 and width > 0:
        if width >= _MAXWIDTH:
            return istart + _randbelow(gen.getrandbits, width)
        return istart + int(gen.random() * width)
    if step == 1:
        raise ValueError(f"empty range for randrange() ({istart},{istop}, {width})")
    istep = _integer(step, "step")
    if istep == 0:
        raise ValueError("zero step for randrange()")
    n = (width + istep - 1) // istep if istep > 0 else (width + istep + 1) // istep
    if n <= 0:
        raise ValueError("empty range for randrange()")
    if n >= _MAXWIDTH:
        return istart + istep * _randbelow(gen.getrandbits, n)
    return istart + istep * int(gen.random() * n)


def shuffle(gen: _random.Random, x: MutableSequence[Any], random: Callable[[], float] | None = None) -> None:
    """Shuffle ``x`` in place as Python 2.7 (and Python <= 3.10 given ``random``) did."""
    draw = gen.random if random is None else random
    for i in reversed(range(1, len(x))):
        j = int(draw() * (i + 1))
        x[i], x[j] = x[j], x[i]


def choice(gen: _random.Random, seq: Any) -> Any:
    """An element of ``seq`` as Python 2.7's ``choice`` drew it (IndexError when empty)."""
    return seq[int(gen.random() * len(seq))]


def sample(gen: _random.Random, population: Any, k: int) -> list[Any]:
    """``k`` distinct elements of ``population`` as Python 2.7's ``sample`` drew them (a list)."""
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("sample larger than population")
    result: list[Any] = [None] * k
    setsize = 21  # Python 2.7's threshold between its two methods
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize or hasattr(population, "keys"):
        pool = list(population)
        for i in range(k):
            j = int(gen.random() * (n - i))
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
        return result
    try:
        selected: set[int] = set()
        for i in range(k):
            j = int(gen.random() * n)
            while j in selected:
                j = int(gen.random() * n)
            selected.add(j)
            result[i] = population[j]
    except (TypeError, KeyError):  # a set: Python 2.7 sampled its tuple
        if isinstance(population, list):
            raise
        return sample(gen, tuple(population), k)
    return result


class Py2Random(_random.Random):
    """``random.Random`` with Python 2.7's ``shuffle``, ``choice``, ``randrange``, ``randint`` and ``sample``."""

    def randrange(self, start: Any, stop: Any = None, step: Any = 1) -> int:
        """Python 2.7's ``randrange``."""
        return randrange(self, start, stop, step)

    def randint(self, a: int, b: int) -> int:
        """Python 2.7's ``randint``: ``randrange(a, b + 1)``."""
        return randrange(self, a, b + 1)

    def shuffle(self, x: MutableSequence[Any], random: Callable[[], float] | None = None) -> None:
        """Python 2.7's ``shuffle``."""
        shuffle(self, x, random)

    def choice(self, seq: Any) -> Any:
        """Python 2.7's ``choice``."""
        return choice(self, seq)

    def sample(self, population: Any, k: int, *, counts: Any = None) -> list[Any]:
        """Python 2.7's ``sample`` (``counts``, a Python 3.9 argument, goes to Python's own)."""
        if counts is not None:
            return super().sample(population, k, counts=counts)
        return sample(self, population, k)


def _global() -> _random.Random:
    """The generator behind the ``random`` module's functions (``random.seed`` seeds it)."""
    return _random._inst  # noqa: SLF001 - the module functions' own instance


#: ``__compat__.random2``: the module-level functions of Python 2.7's ``random``, on the module's generator.
PY2 = types.SimpleNamespace(
    randrange=lambda start, stop=None, step=1: randrange(_global(), start, stop, step),
    randint=lambda a, b: randrange(_global(), a, b + 1),
    shuffle=lambda x, random=None: shuffle(_global(), x, random),
    choice=lambda seq: choice(_global(), seq),
    sample=lambda population, k: sample(_global(), population, k),
    Random=Py2Random,
)


def _sample310(population: Any, k: int, *args: Any, **kwargs: Any) -> list[Any]:
    if isinstance(population, AbstractSet):
        population = tuple(population)
    return _random.sample(population, k, *args, **kwargs)


def _shuffle310(x: MutableSequence[Any], random: Callable[[], float] | None = None) -> None:
    if random is None:
        _random.shuffle(x)
    else:
        shuffle(_global(), x, random)


#: ``__compat__.random310``: what Python 3.11 removed from ``sample`` and ``shuffle``.
PY310 = types.SimpleNamespace(sample=_sample310, shuffle=_shuffle310)


# --------------------------------------------------------------------------
# The source rewrite
# --------------------------------------------------------------------------

class RandomPass(SourcePass):
    """Points the module's ``random`` calls at :data:`PY2` (``python2``) or :data:`PY310`."""

    def __init__(self, tree: ast.Module, python2: bool) -> None:
        super().__init__()
        self._python2 = python2
        self._names = frozenset(vars(PY2) if python2 else vars(PY310))
        self._target = "random2" if python2 else "random310"
        self._modules = set(import_aliases(import_statements(tree), {"random"}))

    def _served(self, name: str, node: ast.AST) -> ast.expr:
        action = PY2_ACTION.format(name=name) if self._python2 else PY310_ACTION[name]
        self.record(node, short(node), action)
        return ast.copy_location(helper(self._target, name), node)

    def _module_function(self, node: ast.expr) -> str | None:
        """``name`` for ``random.name`` (through any alias of the module) when it is served, else None."""
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in self._modules
                and node.attr in self._names):
            return node.attr
        return None

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        self.generic_visit(node)
        name = self._module_function(node) if self._python2 and isinstance(node.ctx, ast.Load) else None
        return node if name is None else self._served(name, node)

    def visit_Call(self, node: ast.Call) -> Any:
        if self._python2:
            return self.generic_visit(node)
        name = self._module_function(node.func)
        self.generic_visit(node)
        # Python 3: only the calls 3.11 changed: shuffle with a second argument, sample (of a set, at run time).
        if name == "sample" or (name == "shuffle" and len(node.args) + len(node.keywords) >= 2):
            node.func = self._served(name, node.func)
        return node

    def visit_ImportFrom(self, node: ast.ImportFrom) -> Any:
        if node.level or node.module != "random" or not self._python2:
            return node
        served = [a for a in node.names if a.name in self._names]
        if not served:
            return node
        kept = [a for a in node.names if a.name not in self._names]
        statements: list[ast.stmt] = []
        if kept:
            statements.append(ast.copy_location(ast.ImportFrom(module="random", names=kept, level=0), node))
        for alias in served:
            self.record(node, f"from random import {alias.name}", PY2_ACTION.format(name=alias.name))
            target = ast.Name(id=alias.asname or alias.name, ctx=ast.Store())
            statements.append(ast.copy_location(ast.Assign(targets=[target], value=helper(self._target, alias.name)),
                                                node))
        return statements
