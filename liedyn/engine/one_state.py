"""The engine for one state: the same kernels and drivers, compiled for chunks of
one state.

The kernels are written for a chunk of :data:`~liedyn.engine.spatial.LANES`
states, each number of a body's row followed by its value in the chunk's other
states, so that the loops over the states compile into vector instructions. A
single state in that layout has its numbers ``LANES`` apart (a body's row spans
many cache lines) and runs each of those loops once, with the tests and the
remainder of a vectorised loop around every one. Here the modules
:mod:`~liedyn.engine.spatial`, :mod:`~liedyn.engine.joints`,
:mod:`~liedyn.engine.kernels` and :mod:`~liedyn.engine.drivers` are executed a
second time, from the same files, as the package ``liedyn.one_state_engine``, with
``LANES = 1`` set in its ``spatial`` before the others read it: a state's numbers
lie side by side and the compiler drops the loops over states.
:mod:`~liedyn.engine.jit` is shared; each driver's machine code is cached in a
folder named by its module (:class:`~liedyn.engine.jit.Driver`), so the two
engines never read each other's.

:func:`liedyn.engine.dispatch.run` sends every batch of one state here, and
larger batches to the engine of chunks.
"""
import importlib.util
import os
import sys
import threading
import types

from . import jit

PACKAGE = "liedyn.one_state_engine"
MODULES = ("spatial", "joints", "kernels", "drivers")
_LOCK = threading.Lock()


def drivers():
    """The drivers module of the one-state engine, executed on first use (once,
    whichever thread comes first)."""
    name = PACKAGE + ".drivers"
    with _LOCK:
        if name not in sys.modules:
            _execute()
    return sys.modules[name]


def _execute():
    here = os.path.dirname(os.path.abspath(__file__))
    package = types.ModuleType(PACKAGE, __doc__)
    sys.modules[PACKAGE] = package
    sys.modules[PACKAGE + ".jit"] = jit        # one way of compiling for both
    for name in MODULES:
        spec = importlib.util.spec_from_file_location(
            f"{PACKAGE}.{name}", os.path.join(here, name + ".py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        if name == "spatial":
            module.LANES = 1                   # read by the modules after it
