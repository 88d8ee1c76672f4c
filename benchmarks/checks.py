"""Cost of the input checks of one call, each measured.

On the compiled path the checks (lengths, NaN and inf, unit quaternions, chart
singularities, a finite result) run inside the numba driver
(:func:`liedyn.engine.drivers.bad_input` and its parts); the walks over the model
are done once per model (the flags of the flattened model tell a check that the
model has no quaternion or no chart to test). This times, for one state of the Panda
(9 revolute and prismatic joints) and of Talos (a free joint, a quaternion): the
whole ``rnea`` and ``aba`` calls, their compiled drivers alone on the validated
inputs with the checks off and on, each compiled check on its own (compiled in
this script, around the same functions), and, for comparison, the Python checks
that the reference path runs. Best of several repeats::

    python benchmarks/checks.py
"""
import timeit
import warnings

import numpy as np
from numba import njit

import liedyn as ld
from liedyn import _checks
from liedyn.engine import dispatch, one_state
from liedyn.engine import drivers as K
from liedyn.joints import CHART_TOL, QUAT_TOL
from liedyn.robots import load


def best(f, number, repeat=7):
    """The best time per call in microseconds."""
    return min(timeit.repeat(f, number=number, repeat=repeat)) / number * 1e6


@njit
def lengths_and_values(topo, q, dq, ddq, f_ext):
    return K.bad_input(topo, q, dq, ddq, f_ext, 1, K.CHECK_STATE)


@njit
def quaternions(topo, q):
    return K.unit_quaternions(topo, q, 1, QUAT_TOL)


@njit
def charts(topo, q):
    return K.charts_ok(topo, q, 1, CHART_TOL)


@njit
def finite(x):
    return K.all_finite(x)


def main():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        robots = {"Panda": load("panda"), "Talos": load("talos", floating_base=True)}
    for name, model in robots.items():
        times = check_times(model)
        print(f"{name} (nq = {model.nq}, nv = {model.nv}):")
        for what, t in times.items():
            print(f"  {what:54s} {t:8.3f} us")


def check_times(model):
    """The best time of each call on one random state of ``model``, in us."""
    rng = np.random.default_rng(0)
    q = model.random_configuration(rng)
    dq, ddq = rng.normal(size=(2, model.nv))
    tau = ld.rnea(model, q, dq, ddq)
    ld.aba(model, q, dq, tau)
    topo, body, no_f_ext, _ = dispatch.flat_model(model)
    out = np.empty(model.nv)
    single = one_state.drivers()                 # the drivers single calls run
    work = dispatch.work(topo, np.float64, single)
    return {
        "rnea (whole call)": best(lambda: ld.rnea(model, q, dq, ddq), 3000),
        "rnea driver, checks off": best(lambda: single.rnea_loop.fast(
            topo, body, q, dq, ddq, no_f_ext, out, work, K.CHECK_OFF), 3000),
        "rnea driver, checks on": best(lambda: single.rnea_loop.fast(
            topo, body, q, dq, ddq, no_f_ext, out, work, K.CHECK_STATE), 3000),
        "aba (whole call)": best(lambda: ld.aba(model, q, dq, tau), 3000),
        "aba driver, checks off": best(lambda: single.aba_loop.fast(
            topo, body, q, dq, tau, no_f_ext, out, work, K.CHECK_OFF), 3000),
        "aba driver, checks on": best(lambda: single.aba_loop.fast(
            topo, body, q, dq, tau, no_f_ext, out, work, K.CHECK_STATE), 3000),
        "compiled: lengths, NaN, inf, quaternions (bad_input)": best(
            lambda: lengths_and_values(topo, q, dq, ddq, no_f_ext), 20000),
        "compiled: unit quaternions alone": best(lambda: quaternions(topo, q),
                                                 20000),
        "compiled: chart singularities (aba)": best(lambda: charts(topo, q),
                                                    20000),
        "compiled: finite result": best(lambda: finite(tau), 20000),
        "empty compiled call, for scale": best(lambda: finite(tau[:0]), 20000),
        "Python: check_q(q)": best(lambda: model.check_q(q), 20000),
        "Python: check_v(dq) + check_v(ddq)": best(
            lambda: (model.check_v(dq), model.check_v(ddq, "ddq")), 20000),
        "Python: all_finite(tau)": best(lambda: _checks.all_finite(tau), 20000),
    }


if __name__ == "__main__":
    main()
