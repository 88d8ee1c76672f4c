"""Cost of the input checks of one ``rnea`` call on the Panda (issue 16).

Times, for a single state (q, dq, ddq of the 9-joint Panda), the whole ``rnea`` call and each
validation it runs at its boundary: the argument checks (``Model.check_q``, ``check_v`` twice:
dtype, shape, finiteness, quaternions), the chart-singularity test (forward dynamics only; the
Panda has no such joint) and the finiteness test of the result. Best of several repeats::

    python benchmarks/checks.py
"""
import timeit

import numpy as np

from liedyn import _checks
from liedyn.rnea import rnea
from liedyn.robots import load


def best(f, number, repeat=7):
    """The best time per call in microseconds."""
    return min(timeit.repeat(f, number=number, repeat=repeat)) / number * 1e6


def main():
    panda = load("panda")
    q, dq, ddq = np.random.default_rng(0).normal(size=(3, panda.nv))
    tau = rnea(panda, q, dq, ddq)
    times = {
        "rnea (whole call)": best(lambda: rnea(panda, q, dq, ddq), 300),
        "check_q(q)": best(lambda: panda.check_q(q), 20000),
        "check_v(dq) + check_v(ddq)": best(lambda: (panda.check_v(dq),
                                                    panda.check_v(ddq, "ddq")), 20000),
        "check_chart(q)": best(lambda: panda.check_chart(q), 20000),
        "all_finite(tau)": best(lambda: _checks.all_finite(tau), 20000),
    }
    checks = sum(t for name, t in times.items() if name != "rnea (whole call)")
    for name, t in times.items():
        print(f"{name:28s} {t:8.2f} us")
    print(f"{'checks in total':28s} {checks:8.2f} us "
          f"({100 * checks / times['rnea (whole call)']:.1f} % of the call)")


if __name__ == "__main__":
    main()
