"""The public functions on dask: a batch of states cut into blocks of rows by dask.array,
each block computed by rnea and aba on the workers of a dask.distributed cluster (in this
process: LocalCluster(processes=False), no network), equals one call on the whole batch.
No scheduler of liedyn's own: the functions are plain numpy functions of their blocks."""
import numpy as np
import pytest

import liedyn as ld
from liedyn.robots import random_tree

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")


@pytest.fixture
def client():
    """A cluster of two single-threaded workers in this process, closed after the test."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            yield c


def test_rnea_and_aba_mapped_over_blocks_equal_one_call(client):
    rng = np.random.default_rng(2026)
    model = random_tree(6, rng, joint_types=("revolute", "prismatic", "spherical", "free"))
    n = 1_000
    Q = np.stack([model.random_configuration(rng) for _ in range(n)])
    dQ, ddQ = rng.normal(size=(2, n, model.nv))
    q, dq, ddq = (da.from_array(x, chunks=(150, -1)) for x in (Q, dQ, ddQ))
    assert len(q.chunks[0]) == 7 and model.nq != model.nv   # blocks of q and dq differ
    tau = da.map_blocks(lambda q, dq, ddq: ld.rnea(model, q, dq, ddq), q, dq, ddq,
                        chunks=dq.chunks, dtype=float)
    back = da.map_blocks(lambda q, dq, tau: ld.aba(model, q, dq, tau), q, dq, tau,
                         chunks=dq.chunks, dtype=float)
    tau_blocks, ddq_blocks = da.compute(tau, back)
    assert len(client.scheduler_info()["workers"]) == 2
    one_call = ld.rnea(model, Q, dQ, ddQ)
    # the same function per state; the blocks only change which states share a chunk
    np.testing.assert_allclose(tau_blocks, one_call, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ddq_blocks, ld.aba(model, Q, dQ, one_call),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ddq_blocks, ddQ, rtol=0, atol=1e-8)
