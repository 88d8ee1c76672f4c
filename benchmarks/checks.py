"""Cost of the input checks of one ``rnea`` call on the Panda.

On the compiled path the checks (lengths, NaN and inf, unit quaternions, a finite
result) run inside the numba driver, :func:`liedyn.engine.drivers.bad_input`;
Python only chooses the compiled path. This times, for one state (q, dq, ddq of
the 9-joint Panda), the whole ``rnea`` call, the same compiled driver alone on the
validated inputs with its checks off and with them on, and, for comparison, the
Python checks that the reference path runs (``Model.check_q``, ``check_v`` twice,
the finite result). Best of several repeats::

    python benchmarks/checks.py
"""
import timeit

import numpy as np

from liedyn import _checks
from liedyn.engine import dispatch as _exec
from liedyn.engine import drivers as K
from liedyn.inverse_dynamics import rnea
from liedyn.robots import load


def best(f, number, repeat=7):
    """The best time per call in microseconds."""
    return min(timeit.repeat(f, number=number, repeat=repeat)) / number * 1e6


def main():
    panda = load("panda")
    q, dq, ddq = np.random.default_rng(0).normal(size=(3, panda.nv))
    tau = rnea(panda, q, dq, ddq)
    topo, body, no_f_ext = _exec.flat_model(panda)
    times = {
        "rnea (whole call)": best(lambda: rnea(panda, q, dq, ddq), 3000),
        "driver, checks off": best(lambda: K.rnea_loop.fast(
            topo, body, q, dq, ddq, no_f_ext, np.empty(panda.nv), K.CHECK_OFF), 3000),
        "driver, checks on": best(lambda: K.rnea_loop.fast(
            topo, body, q, dq, ddq, no_f_ext, np.empty(panda.nv), K.CHECK_STATE), 3000),
        "check_q(q)": best(lambda: panda.check_q(q), 20000),
        "check_v(dq) + check_v(ddq)": best(lambda: (panda.check_v(dq),
                                                    panda.check_v(ddq, "ddq")), 20000),
        "all_finite(tau)": best(lambda: _checks.all_finite(tau), 20000),
    }
    for name, t in times.items():
        print(f"{name:28s} {t:8.2f} us")
    whole, off = times["rnea (whole call)"], times["driver, checks off"]
    print(f"{'overhead of the public call':28s} {whole - off:8.2f} us "
          f"({100 * (whole - off) / whole:.1f} % of the call; compiled checks "
          f"{times['driver, checks on'] - off:.2f} us)")


if __name__ == "__main__":
    main()
