"""Tests of liedyn.model: building a tree, its index maps, configurations and input validation.

Every error a user can make while building a model or calling an algorithm must raise with a
message that names the body (builder) or the argument (algorithms).
"""
import numpy as np
import pytest
from hypothesis import given, settings

import liedyn as ld
from liedyn import joints as J
from liedyn.inertia import spatial_inertia
from liedyn.inverse_dynamics import rnea
from liedyn.kinematics import body_accelerations, body_jacobian, body_velocities, forward_kinematics
from liedyn.lie import exp_so3, make_transform
from liedyn.model import Model
from liedyn.robots import JOINT_TYPES, random_tree, serial_chain

from strategies import seeds

SETTINGS = settings(max_examples=30, deadline=None)
INERTIA = spatial_inertia(1.0, [0.1, 0.0, 0.0], np.diag([0.1, 0.2, 0.25]))


def small_tree():
    """ground - a(revolute) - b(spherical) ; a - c(free) - d(prismatic); ground - e(fixed)."""
    m = Model()
    m.add_body("a", 0, J.Revolute([0, 0, 1]), inertia=INERTIA)
    m.add_body("b", "a", J.Spherical(), placement=make_transform(np.eye(3), [1, 0, 0]),
               inertia=INERTIA)
    m.add_body("c", 1, J.Free(), inertia=INERTIA)
    m.add_body("d", "c", J.Prismatic([1, 0, 0]), inertia=INERTIA)
    m.add_body("e", "ground", J.Fixed(), inertia=INERTIA)
    return m


# ---------------------------------------------------------------------------------------------
# builder errors
# ---------------------------------------------------------------------------------------------
def test_unknown_parent_by_name():
    m = Model()
    with pytest.raises(ValueError, match=r"body 'x'.*parent.*unknown body 'nope'"):
        m.add_body("x", "nope", J.Revolute())


@pytest.mark.parametrize("parent", [1, 5, -1])
def test_unknown_parent_by_index(parent):
    m = Model()
    with pytest.raises(ValueError, match=r"body 'x'.*unknown body index"):
        m.add_body("x", parent, J.Revolute())


def test_parent_must_come_first():
    """A body can only hang from one added earlier: this is what makes parent[i] < i."""
    m = Model()
    m.add_body("a", 0, J.Revolute())
    with pytest.raises(ValueError, match=r"body 'b'.*topological order"):
        m.add_body("b", 2, J.Revolute())


def test_duplicate_name():
    m = Model()
    m.add_body("a", 0, J.Revolute())
    with pytest.raises(ValueError, match=r"body 'a': duplicate name"):
        m.add_body("a", 1, J.Revolute())
    with pytest.raises(ValueError, match="duplicate"):
        m.add_body("ground", 1, J.Revolute())


@pytest.mark.parametrize("name", ["", None, 3])
def test_bad_name(name):
    with pytest.raises(ValueError, match="name"):
        Model().add_body(name, 0, J.Revolute())


@pytest.mark.parametrize("placement, what", [
    (np.diag([2.0, 1.0, 1.0, 1.0]), "not a rotation"),                   # scaled: not SE(3)
    (np.diag([-1.0, 1.0, 1.0, 1.0]), "not a rotation"),                  # reflection
    (np.vstack([np.eye(4)[:3], [0.0, 0.0, 1.0, 1.0]]), "last row"),
    (np.eye(3), "shape"),                                                # wrong shape
    (np.eye(4)[None].repeat(2, axis=0), "shape"),                        # a batch: wrong shape
    (np.where(np.eye(4) == 1, np.nan, 0.0), "NaN"),
    (np.vstack([np.eye(4)[:, :3].T, [0.0, np.inf, 0.0, 1.0]]).T, "NaN or inf"),
])
def test_bad_placement(placement, what):
    with pytest.raises(ValueError, match=rf"body 'x': .*placement.*{what}"):
        Model().add_body("x", 0, J.Revolute(), placement=placement)


@pytest.mark.parametrize("inertia, what", [
    (np.eye(3), "shape"),
    (-INERTIA, "mass must be positive"),
    (INERTIA + np.triu(np.ones((6, 6)), 1) * 0.1, "not symmetric"),
    (np.diag([1.0, 1.0, 5.0, 1.0, 1.0, 1.0]), "triangle inequality"),
    (np.diag([1.0, 1.0, 1.0, 1.0, 2.0, 1.0]), "m \\* identity"),
    (np.where(np.eye(6) == 1, np.nan, 0.0), "NaN"),
])
def test_bad_inertia(inertia, what):
    with pytest.raises(ValueError, match=rf"body 'x': .*{what}"):
        Model().add_body("x", 0, J.Revolute(), inertia=inertia)


@pytest.mark.parametrize("joint", ["revolute", J.Revolute, None, 1])
def test_non_joint_raises(joint):
    with pytest.raises(TypeError, match=r"body 'x': joint must be a liedyn.joints.Joint"):
        Model().add_body("x", 0, joint)


def test_failed_add_leaves_model_unchanged():
    m = small_tree()
    before = (list(m.names), list(m.parent), m.nq, m.nv)
    with pytest.raises(ValueError):
        m.add_body("z", "a", J.Revolute(), inertia=-INERTIA)
    assert (list(m.names), list(m.parent), m.nq, m.nv) == before


@pytest.mark.parametrize("gravity", [[0.0, 0.0], [0.0, np.nan, 0.0]])
def test_bad_gravity(gravity):
    with pytest.raises(ValueError, match="gravity"):
        Model(gravity=gravity)


# ---------------------------------------------------------------------------------------------
# sizes, slices, tree queries
# ---------------------------------------------------------------------------------------------
def test_sizes_and_slices():
    m = small_tree()
    assert m.nbodies == 5
    assert (m.nq, m.nv) == (1 + 4 + 7 + 1 + 0, 1 + 3 + 6 + 1 + 0)
    assert m.q_slice[1:] == [slice(0, 1), slice(1, 5), slice(5, 12), slice(12, 13),
                             slice(13, 13)]
    assert m.v_slice[1:] == [slice(0, 1), slice(1, 4), slice(4, 10), slice(10, 11),
                             slice(11, 11)]
    assert m.parent == [-1, 0, 1, 1, 3, 0]
    assert m.children == [[1, 5], [2, 3], [], [4], [], []]
    assert m.body("c") == 3 and m.body("ground") == 0 and m.body(4) == 4


@SETTINGS
@given(seeds)
def test_slices_partition_q_and_v(seed):
    rng = np.random.default_rng(seed)
    m = random_tree(int(rng.integers(1, 10)), rng, joint_types=JOINT_TYPES)
    assert all(m.parent[i] < i for i in range(1, m.nbodies + 1))
    for sl, n, attr in [(m.q_slice, m.nq, "nq"), (m.v_slice, m.nv, "nv")]:
        covered = np.concatenate([np.arange(n)[s] for s in sl[1:]])
        np.testing.assert_array_equal(covered, np.arange(n))           # integers
        assert [s.stop - s.start for s in sl[1:]] == [getattr(j, attr) for j in m.joints[1:]]


def test_support_and_subtree():
    m = small_tree()
    assert m.support(4) == [1, 3, 4]
    assert m.support(5) == [5]
    assert m.support(0) == []
    assert m.subtree(1) == [1, 2, 3, 4]
    assert m.subtree(3) == [3, 4]
    assert m.subtree(2) == [2]


@SETTINGS
@given(seeds)
def test_support_subtree_consistent(seed):
    rng = np.random.default_rng(seed)
    m = random_tree(int(rng.integers(1, 10)), rng)
    for i in range(1, m.nbodies + 1):
        for k in range(1, m.nbodies + 1):
            assert (i in m.support(k)) == (k in m.subtree(i))
        assert set(m.subtree(i)) == {i}.union(*[set(m.subtree(c)) for c in m.children[i]])


# ---------------------------------------------------------------------------------------------
# configurations
# ---------------------------------------------------------------------------------------------
def test_neutral_configuration():
    m = small_tree()
    q0 = m.neutral_configuration()
    assert q0.shape == (m.nq,)
    np.testing.assert_array_equal(q0, [0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0])   # constants
    Tw = forward_kinematics(m, q0).T_world
    np.testing.assert_allclose(Tw[2], make_transform(np.eye(3), [1, 0, 0]), atol=0)


def test_random_configuration_is_seeded_and_valid():
    m = small_tree()
    a = m.random_configuration(np.random.default_rng(3))
    b = m.random_configuration(np.random.default_rng(3))
    np.testing.assert_array_equal(a, b)                 # the same draw of the same seed
    m.check_q(a)
    assert not np.allclose(a, m.random_configuration(np.random.default_rng(4)))


def pose_distance(m, q0, q1):
    return np.max(np.abs(forward_kinematics(m, q0).T - forward_kinematics(m, q1).T))


@SETTINGS
@given(seeds)
def test_model_integrate_difference_round_trip(seed):
    rng = np.random.default_rng(seed)
    m = random_tree(int(rng.integers(1, 8)), rng, joint_types=JOINT_TYPES)
    q0, q1 = m.random_configuration(rng), m.random_configuration(rng)
    v = m.difference(q0, q1)
    assert v.shape == (m.nv,)
    assert pose_distance(m, m.integrate(q0, v), q1) < 1e-12
    w = rng.normal(size=m.nv) * 0.5
    np.testing.assert_allclose(m.difference(q0, m.integrate(q0, w)), w, rtol=0, atol=1e-12)
    # batched: (4, nq) and (4, nv)
    Q0 = np.array([m.random_configuration(rng) for _ in range(4)])
    W = rng.normal(size=(4, m.nv)) * 0.5
    Q1 = m.integrate(Q0, W, 0.3)
    assert Q1.shape == (4, m.nq)
    np.testing.assert_allclose(m.difference(Q0, Q1), 0.3 * W, rtol=0, atol=1e-12)
    for k in range(4):
        np.testing.assert_allclose(Q1[k], m.integrate(Q0[k], W[k], 0.3), rtol=0, atol=1e-15)


def test_integrate_quaternion_joints_stays_unit():
    m = small_tree()
    rng = np.random.default_rng(5)
    q = m.random_configuration(rng)
    for _ in range(50):
        q = m.integrate(q, rng.normal(size=m.nv), 0.1)
    m.check_q(q)
    np.testing.assert_allclose(np.linalg.norm(q[m.q_slice[2]]), 1.0, atol=1e-13)
    np.testing.assert_allclose(np.linalg.norm(q[m.q_slice[3]][3:]), 1.0, atol=1e-13)


# ---------------------------------------------------------------------------------------------
# algorithm inputs: wrong shapes and NaN name the argument
# ---------------------------------------------------------------------------------------------
def good_state(m, rng):
    return (m.random_configuration(rng), rng.normal(size=m.nv), rng.normal(size=m.nv),
            rng.normal(size=(m.nbodies, 6)))


@pytest.mark.parametrize("arg", ["q", "dq", "ddq", "f_ext"])
@pytest.mark.parametrize("bad", ["short", "long", "nan", "inf", "scalar"])
def test_rnea_bad_inputs_name_the_argument(arg, bad):
    m = small_tree()
    rng = np.random.default_rng(6)
    args = dict(zip(["q", "dq", "ddq", "f_ext"], good_state(m, rng), strict=True))
    x = args[arg]
    if bad == "short":
        x = x[..., :-1]
    elif bad == "long":
        x = np.concatenate([x, x[..., :1]], axis=-1)
    elif bad in ("nan", "inf"):
        x = x.copy()
        x.flat[0 if arg != "q" else 1] = np.nan if bad == "nan" else np.inf
    else:
        x = 0.0
    args[arg] = x
    with pytest.raises(ValueError, match=rf"argument '{arg}'"):
        rnea(m, **args)


def test_f_ext_with_ground_row_is_rejected():
    """f_ext has one row per body 1..N, not N+1."""
    m = small_tree()
    q, dq, ddq, _ = good_state(m, np.random.default_rng(7))
    with pytest.raises(ValueError, match=r"argument 'f_ext': expected shape \(\.\.\., 5, 6\)"):
        rnea(m, q, dq, ddq, np.zeros((m.nbodies + 1, 6)))


def test_bad_quaternion_in_q_raises_for_every_algorithm():
    m = small_tree()
    q, dq, ddq, _ = good_state(m, np.random.default_rng(8))
    q[m.q_slice[2]] *= 1.01
    for call in [lambda: rnea(m, q, dq, ddq), lambda: forward_kinematics(m, q),
                 lambda: body_velocities(m, q, dq), lambda: body_jacobian(m, q, 2),
                 lambda: body_accelerations(m, q, dq, ddq), lambda: m.integrate(q, dq)]:
        with pytest.raises(ValueError, match=r"argument 'q.*'b'.*quaternion"):
            call()


@pytest.mark.parametrize("call, arg", [
    (lambda m, q, v: body_velocities(m, q, v[:-1]), "dq"),
    (lambda m, q, v: body_accelerations(m, q, v, v[:2]), "ddq"),
    (lambda m, q, v: m.integrate(q, v[:-1]), "v"),
    (lambda m, q, v: m.difference(q[:-1], q), "q0"),
    (lambda m, q, v: m.difference(q, np.full_like(q, np.nan)), "q1"),
    (lambda m, q, v: forward_kinematics(m, q[:-1]), "q"),
])
def test_other_entry_points_name_the_argument(call, arg):
    m = small_tree()
    q, dq, _, _ = good_state(m, np.random.default_rng(9))
    with pytest.raises(ValueError, match=rf"argument '{arg}"):
        call(m, q, dq)


def test_unknown_body_in_jacobian():
    m = serial_chain(3)
    with pytest.raises(ValueError, match="unknown body 'hand'"):
        body_jacobian(m, np.zeros(3), "hand")
    with pytest.raises(ValueError, match="unknown body index 7"):
        body_jacobian(m, np.zeros(3), 7)


def test_batch_shapes_broadcast():
    m = small_tree()
    rng = np.random.default_rng(10)
    q = np.array([m.random_configuration(rng) for _ in range(3)])       # (3, nq)
    dq = rng.normal(size=(2, 1, m.nv))                                  # (2, 1, nv)
    tau = rnea(m, q, dq, np.zeros(m.nv))
    assert tau.shape == (2, 3, m.nv)
    np.testing.assert_allclose(tau[1, 2], rnea(m, q[2], dq[1, 0], np.zeros(m.nv)), atol=1e-13)
    with pytest.raises(ValueError):
        rnea(m, q, rng.normal(size=(2, m.nv)), np.zeros(m.nv))          # 3 vs 2: no broadcast


def test_rotated_placement_is_kept():
    R = exp_so3([0.3, -0.2, 0.5])
    m = Model()
    m.add_body("x", 0, J.Revolute(), placement=make_transform(R, [1.0, 2.0, 3.0]))
    np.testing.assert_allclose(m.placements[1][:3, :3], R)
    assert m.placements[1].dtype == float


@pytest.mark.parametrize("call, names", [
    (lambda m, q, v: ld.rnea(m, q, v, v[0]), "'q', 'dq', 'ddq'"),
    (lambda m, q, v: ld.aba(m, q, v, v[0]), "'q', 'dq', 'tau'"),
    (lambda m, q, v: ld.hybrid(m, q, v, v[0], v[0], [True, False]), "'q', 'dq', 'ddq', 'tau'"),
    (lambda m, q, v: ld.bias_force(m, q, v), "'q', 'dq', 'ddq'"),
    (lambda m, q, v: m.integrate(q, v), "'q', 'v'"),
])
def test_batches_that_do_not_broadcast_are_refused_by_name(call, names):
    """A batch of 3 configurations with a batch of 4 velocities: the message names
    the arguments and their batch shapes, not numpy's positional arguments."""
    model = ld.robots.double_pendulum()
    q, v = np.zeros((3, 2)), np.zeros((4, 2))
    with pytest.raises(ValueError, match=f"arguments {names}: batch shapes .* "
                                         r"'q' \(3,\), '\w+' \(4,\)"):
        call(model, q, v)
