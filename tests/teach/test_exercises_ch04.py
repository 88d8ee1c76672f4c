"""The chapter 4 exercise checkers accept the right answers and explain typical wrong ones.

Right answers are computed here with liedyn (the notebook's way); the checkers compute theirs
with plain numpy, so the two sides are independent.
"""
import numpy as np
import pytest

from liedyn import joints as J
from liedyn.kinematics import body_jacobian, forward_kinematics
from liedyn.model import Model
from liedyn.robots import planar_arm
from liedyn.teach.exercises import WrongAnswer, check
from liedyn.teach.exercises import ch04 as ex

from common import hint


def tree_ex1():
    m = Model()
    for i in range(1, len(ex.PARENTS_EX1)):
        m.add_body(f"b{i}", ex.PARENTS_EX1[i], J.Revolute())
    return m


def universal():
    return J.Universal([1, 0, 0], [0, 1, 0])


def tip_ex5():
    model = planar_arm(3, length=ex.L_EX5)
    return (forward_kinematics(model, ex.Q_EX5).T_world[3] @ [ex.L_EX5, 0, 0, 1])[:3]


def model_ex6():
    kinds = {"free": J.Free, "spherical": J.Spherical, "revolute": J.Revolute,
             "universal": J.Universal, "fixed": J.Fixed}
    m = Model()
    for i, kind in enumerate(ex.JOINTS_EX6, 1):
        m.add_body(f"b{i}", 0 if i == 1 else 1, kinds[kind]())
    return m


def test_right_answers_pass():
    assert check("ch4.ex1", tree_ex1().support(8))
    assert check("ch4.ex2", universal().S(ex.Q_EX2))
    assert check("ch4.ex3", universal().dS(ex.Q_EX2, ex.DQ_EX3))
    assert check("ch4.ex4", body_jacobian(planar_arm(3, length=ex.L_EX4), ex.Q_EX4, 3))
    assert check("ch4.ex5", tip_ex5())
    m = model_ex6()
    assert check("ch4.ex6", (m.nq, m.nv))


def test_ex1_hints():
    right = tree_ex1().support(8)
    hint("ch4.ex1", [0] + right, "ground")
    hint("ch4.ex1", right[::-1], "wrong order")
    hint("ch4.ex1", [8], "ancestors")
    hint("ch4.ex1", [1, 2, 4, 8], "follow the parents")
    hint("ch4.ex1", "abc", "list of body indices")


def test_ex2_hints():
    S = universal().S(ex.Q_EX2)
    spatial = S.copy()
    spatial[:3, 0] = J.Revolute([0, 1, 0]).transform(ex.Q_EX2[1:])[:3, :3] @ [1, 0, 0]
    hint("ch4.ex2", spatial, "spatial axis")
    hint("ch4.ex2", universal().S(np.zeros(2)), "not constant")
    hint("ch4.ex2", np.vstack([S[3:], S[:3]]), r"\(v, w\) order")
    hint("ch4.ex2", S[:3], r"shape \(6, 2\)")
    hint("ch4.ex2", S + 1e-3, "off by")


def test_ex3_hints():
    dS = universal().dS(ex.Q_EX2, ex.DQ_EX3)
    hint("ch4.ex3", np.zeros((6, 2)), "not zero")
    hint("ch4.ex3", -dS, "wrong sign")
    hint("ch4.ex3", dS / ex.DQ_EX3[1], "dS/dq2")
    hint("ch4.ex3", dS * 2, "off by")


def test_ex4_hints():
    model = planar_arm(3, length=ex.L_EX4)
    Jb = body_jacobian(model, ex.Q_EX4, 3)
    # the slip: e_z x p_{j,3}, the velocity of the origin of {3}, left in the axes of {j}
    T_world = forward_kinematics(model, ex.Q_EX4).T_world
    in_own = Jb.copy()
    for j in (1, 2):
        p_j3 = (np.linalg.inv(T_world[j]) @ T_world[3])[:3, 3]
        in_own[3:, j - 1] = np.cross([0.0, 0.0, 1.0], p_j3)
    hint("ch4.ex4", in_own, "in the axes of {j}")
    from liedyn.lie import Ad
    Js = Ad(forward_kinematics(model, ex.Q_EX4).T_world[3]) @ Jb
    hint("ch4.ex4", Js, "spatial Jacobian")
    hint("ch4.ex4", np.vstack([Jb[3:], Jb[:3]]), r"\(v, w\) order")
    q2, q3 = ex.Q_EX4[1:]
    one_link = Jb.copy()
    one_link[3:5, 0] = ex.L_EX4 * np.array([np.sin(q2 + q3), np.cos(q2 + q3)])
    hint("ch4.ex4", one_link, "through both")
    hint("ch4.ex4", Jb[:, :2], r"shape \(6, 3\)")


def test_ex5_hints():
    model = planar_arm(3, length=ex.L_EX5)
    hint("ch4.ex5", forward_kinematics(model, ex.Q_EX5).T_world[3, :3, 3], "origin of body 3")
    L = ex.L_EX5
    hint("ch4.ex5", [np.sum(L * np.cos(ex.Q_EX5)), np.sum(L * np.sin(ex.Q_EX5)), 0.0],
          "relative")
    hint("ch4.ex5", tip_ex5()[:2], r"shape \(3,\)")


def test_ex6_hints():
    m = model_ex6()
    hint("ch4.ex6", (m.nv, m.nv), "quaternion")
    hint("ch4.ex6", (m.nq + 1, m.nv + 1), "fixed joint")
    hint("ch4.ex6", (m.nv, m.nq), "swapped")
    hint("ch4.ex6", (m.nq, m.nv - 2), "off by")


def test_ex8_reads_the_elbow_angle_off_the_determinant():
    """The determinant of the tip Jacobian's (v_x, v_y) block, computed with liedyn, is
    largest in magnitude at the checker's angle; the typical misreadings are named."""
    from liedyn.kinematics import frame_jacobian
    from liedyn.lie import make_transform
    angles = np.linspace(1e-3, np.pi - 1e-3, 2001)
    J_t = frame_jacobian(planar_arm(2), np.stack([np.zeros_like(angles), angles], -1), 2,
                         make_transform(np.eye(3), [1.0, 0.0, 0.0]))
    best = angles[np.argmax(np.abs(np.linalg.det(J_t[:, 3:5, :])))]
    assert check("ch4.ex8", best) is True
    assert check("ch4.ex8", [best]) is True
    hint("ch4.ex8", -best, r"\(0, pi\)")
    hint("ch4.ex8", 90.0, "radians")
    hint("ch4.ex8", 0.0, "vanishes")
    hint("ch4.ex8", np.pi, "vanishes")
    hint("ch4.ex8", 1.0, "largest value")
    hint("ch4.ex8", 2.0, "off by")


# exercise 7 (Implement forward kinematics): the checker of teach.implement
from test_implement import my_fk  # noqa: E402  (a right implementation, a planted bug)


def test_ex7_a_right_forward_kinematics_passes_and_a_planted_bug_is_reported(capsys):
    assert check("ch4.ex7", my_fk) is True
    assert "agrees with liedyn on" in capsys.readouterr().out
    with pytest.raises(WrongAnswer, match=r"body \d+ \(a \w+ joint, parent \d+\): T_0\d+ "
                                          "differs"):
        check("ch4.ex7", lambda model, q: my_fk(model, q, slip="Phi X"))   # Phi X, not X Phi
    with pytest.raises(WrongAnswer, match=r"ch4.ex7: .*\n  Your T_0\d+ is T_0\d+ Phi_\d+ "
                                          r"X_\d+: the placement comes first"):
        check("ch4.ex7", lambda model, q: my_fk(model, q, slip="Phi X"))
    with pytest.raises(WrongAnswer, match="called liedyn.kinematics.forward_kinematics"):
        check("ch4.ex7", lambda model, q: list(forward_kinematics(model, q).T_world))
    with pytest.raises(WrongAnswer, match="give your function"):
        check("ch4.ex7", np.eye(4))
