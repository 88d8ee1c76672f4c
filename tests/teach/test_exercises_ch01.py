"""The checkers of chapter 1's exercises accept the right answers and explain the usual mistakes."""
import numpy as np
import pytest

from liedyn.dexp import dexp_inv_so3, dexp_so3
from liedyn.lie import Ad, Ad_inv, Ad_star, ad, ad_star, log_se3, make_transform
from liedyn.teach.exercises import WrongAnswer, ch01, check

R = ch01.ROT_Z_90
P = np.block([[np.zeros((3, 3)), np.eye(3)], [np.eye(3), np.zeros((3, 3))]])


def skew(p):
    return np.array([[0.0, -p[2], p[1]], [p[2], 0.0, -p[0]], [-p[1], p[0], 0.0]])


def rot_z(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


# Right answers, computed without liedyn where the hand computation is short.
T1 = make_transform(R, [1.0, 2.0, 0.0])
AD1 = np.block([[R, np.zeros((3, 3))], [skew([1.0, 2.0, 0.0]) @ R, R]])
T4 = make_transform(R, [1.0, -1.0, 0.5])
RIGHT = {
    "ch1.ex1": AD1,
    "ch1.ex2": np.array([0.0, 0.0, 2.0, 1.0, 0.0, 0.0]),       # w x p = (0, 1, 0), rotated by R^T
    "ch1.ex3": np.array([-1.0, 0.0, 0.0, 0.0, 5.0, 0.0]),      # f_s = R f_g, m_s = p x f_s
    "ch1.ex4": np.array([0.0, 0.0, np.pi / 2, 0.0, -np.pi / 2, 0.5]),   # v = -w x r + ell w
    "ch1.ex5": np.array([9.81 / 2, 0.0, 0.0, 0.0, -9.81, 0.0]),  # (-v x f, -w x f)
    "ch1.ex6": dexp_so3([0.3, 0.2, -0.5]) @ np.array([0.3, 0.0, -1.0]),
}


@pytest.mark.parametrize("exercise", RIGHT)
def test_right_answers_pass(exercise, capsys):
    assert check(exercise, RIGHT[exercise]) is True
    out = capsys.readouterr().out                 # one line that says what was checked
    assert out.startswith(f"{exercise}: correct. Checked: ") and out.count("\n") == 1
    number = exercise.split(".ex")[1]
    assert getattr(ch01, f"ex{number}")(RIGHT[exercise].tolist()) is True   # lists work too


def test_right_answers_agree_with_liedyn():
    """The hand-computed answers above equal what liedyn computes."""
    np.testing.assert_allclose(RIGHT["ch1.ex1"], Ad(T1), atol=1e-15)
    V_s = np.array([0.0, 0.0, 2.0, 0.0, 0.0, 0.0])
    np.testing.assert_allclose(RIGHT["ch1.ex2"], Ad_inv(make_transform(R, [0.5, 0, 0.1])) @ V_s,
                               atol=1e-15)
    np.testing.assert_allclose(RIGHT["ch1.ex4"], log_se3(T4), atol=1e-15)
    V, Y = np.array([1.0, 0, 0, 0, 0.5, 0]), np.array([0.0, 0, 0, 0, 0, -9.81])
    np.testing.assert_allclose(RIGHT["ch1.ex5"], ad_star(V) @ Y, atol=1e-15)


def test_answers_within_tolerance_pass():
    assert check("ch1.ex4", RIGHT["ch1.ex4"] + 1e-10)


WRONG = [
    # (exercise, wrong answer, words the explanation must contain)
    ("ch1.ex1", AD1.T, ["transpose", "coadjoint", "eq. (8)"]),
    ("ch1.ex1", Ad_inv(T1), ["inverse"]),
    ("ch1.ex1", P @ AD1 @ P, ["(v, w)", "angular part first"]),
    ("ch1.ex1", np.block([[R, np.zeros((3, 3))], [R @ skew([1.0, 2.0, 0.0]), R]]),
     ["[p] R, not R [p]"]),
    ("ch1.ex1", np.block([[R, np.zeros((3, 3))], [-skew([1.0, 2.0, 0.0]) @ R, R]]),
     ["sign error"]),
    ("ch1.ex1", np.kron(np.eye(2), R), ["missing"]),
    ("ch1.ex1", Ad(make_transform(R.T, [1.0, 2.0, 0.0])), ["R^T"]),
    ("ch1.ex2", Ad(make_transform(R, [0.5, 0, 0.1])) @ [0, 0, 2.0, 0, 0, 0], ["Ad_{T_sb^-1}"]),
    ("ch1.ex2", [1.0, 0.0, 0.0, 0.0, 0.0, 2.0], ["(v, w)"]),
    ("ch1.ex2", [0.0, 0.0, 2.0, -1.0, 0.0, 0.0], ["sign error", "w x p"]),
    ("ch1.ex2", [0.0, 0.0, 2.0, 0.0, 1.0, 0.0], ["R^T"]),
    ("ch1.ex2", [0.0, 0.0, 2.0, 0.0, 0.0, 0.0], ["not zero"]),
    ("ch1.ex3", Ad_star(make_transform(R, [0, 0, 0.2])) @ [0, 0, 0, 5.0, 0, 0],
     ["Ad*_{T_sg}", "Ad_{T_sg^-1}^T"]),
    ("ch1.ex3", [0.0, 5.0, 0.0, -1.0, 0.0, 0.0], ["(v, w)"]),
    ("ch1.ex3", [1.0, 0.0, 0.0, 0.0, 5.0, 0.0], ["sign error in the moment"]),
    ("ch1.ex3", [0.0, 1.0, 0.0, 5.0, 0.0, 0.0], ["rotate it into {S}"]),
    ("ch1.ex3", [0.0, 0.0, 0.0, 0.0, 5.0, 0.0], ["moment is missing"]),
    ("ch1.ex4", [0.0, 0.0, np.pi / 2, 1.0, -1.0, 0.5], ["not the translation", "J_l(w)^-1 p"]),
    ("ch1.ex4", [0.0, -np.pi / 2, 0.5, 0.0, 0.0, np.pi / 2], ["(v, w)"]),
    ("ch1.ex4", [0.0, 0.0, 90.0, 0.0, -np.pi / 2, 0.5], ["radians"]),
    ("ch1.ex4", [0.0, 0.0, np.pi / 2, 0.0, np.pi / 2, 0.5], ["sign error in v"]),
    ("ch1.ex4", [0.0, 0.0, np.pi / 2, 0.0, -np.pi / 2, -0.5], ["+0.5"]),
    ("ch1.ex4", [0.0, 0.0, -np.pi / 2, 0.0, np.pi / 2, -0.5], ["T^-1"]),
    ("ch1.ex5", -RIGHT["ch1.ex5"], ["sign error", "Lemma 2"]),
    ("ch1.ex5", ad(np.array([1.0, 0, 0, 0, 0.5, 0])) @ [0, 0, 0, 0, 0, -9.81],
     ["ad_V", "Lemma 1", "dse(3)"]),
    ("ch1.ex5", -(ad(np.array([1.0, 0, 0, 0, 0.5, 0])) @ [0, 0, 0, 0, 0, -9.81]),
     ["-ad_V Y", "ad*_V = ad_V^T"]),
    ("ch1.ex5", np.zeros(6), ["components", "change"]),
    ("ch1.ex5", P @ RIGHT["ch1.ex5"], ["(v, w)"]),
    ("ch1.ex6", dexp_so3([0.3, 0.2, -0.5], side="left") @ [0.3, 0.0, -1.0],
     ["spatial angular velocity", "right Jacobian"]),
    ("ch1.ex6", [0.3, 0.0, -1.0], ["not d(phi)/dt"]),
    ("ch1.ex6", dexp_inv_so3([0.3, 0.2, -0.5]) @ [0.3, 0.0, -1.0], ["inverse Jacobian"]),
]


@pytest.mark.parametrize("exercise, answer, words", WRONG,
                         ids=[f"{w[0]}-{i}" for i, w in enumerate(WRONG)])
def test_typical_wrong_answers_are_explained(exercise, answer, words):
    with pytest.raises(WrongAnswer) as err:
        check(exercise, np.asarray(answer, dtype=float))
    message = str(err.value)
    assert message.startswith(f"{exercise}: ")
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"


def test_the_rule_of_thumb_answers_are_really_wrong():
    """Every typical wrong answer differs from the right one (else the hint would be a lie)."""
    for exercise, answer, _ in WRONG:
        assert np.max(np.abs(np.asarray(answer) - RIGHT[exercise])) > 1e-3, exercise


def test_an_unrecognised_wrong_answer_gets_the_error_size_and_a_hint():
    with pytest.raises(WrongAnswer, match=r"ch1.ex2: V_b is off by 0.5 .* Hint: V_b = Ad_"):
        check("ch1.ex2", RIGHT["ch1.ex2"] + np.array([0, 0, 0, 0, 0, 0.5]))
    with pytest.raises(WrongAnswer, match=r"ch1.ex6: w is off by .* Hint: w = J_r\(phi\)"):
        check("ch1.ex6", RIGHT["ch1.ex6"] * 1.1)


@pytest.mark.parametrize("exercise, answer, shape", [
    ("ch1.ex1", np.eye(4), "(6, 6)"), ("ch1.ex2", np.zeros(3), "(6,)"),
    ("ch1.ex3", np.zeros((6, 1)), "(6,)"), ("ch1.ex4", np.zeros(5), "(6,)"),
    ("ch1.ex5", np.zeros(7), "(6,)"), ("ch1.ex6", np.zeros(6), "(3,)"),
])
def test_wrong_shape_is_reported(exercise, answer, shape):
    with pytest.raises(WrongAnswer) as err:
        check(exercise, answer)
    assert f"should have shape {shape}, got {answer.shape}" in str(err.value)


def test_non_numeric_and_nan_answers():
    with pytest.raises(WrongAnswer, match="numeric array"):
        check("ch1.ex6", "pi")
    with pytest.raises(WrongAnswer, match="NaN or inf"):
        check("ch1.ex6", [np.nan, 0.0, 0.0])


def test_unknown_exercise():
    with pytest.raises(ValueError, match="chapter 1 has no exercise 9"):
        check("ch1.ex9", 0.0)


def test_rotation_used_by_the_exercises():
    np.testing.assert_allclose(R, rot_z(np.pi / 2), atol=1e-15)


def test_ex7_the_best_forward_step_is_the_one_liedyn_gives():
    """The step of the grid at which the forward difference of liedyn's exp_so3 is most
    accurate is the checker's answer (computed there from -0.8 sin), and the typical
    misreadings of the plot are named."""
    from liedyn.lie import exp_so3
    a = np.array([0.6, 0.0, 0.8])
    f = lambda theta: exp_so3(theta * a)[0, 1]
    errors = [abs((f(1 + h) - f(1.0)) / h + 0.8 * np.cos(1.0)) for h in ch01.STEPS_EX7]
    best = ch01.STEPS_EX7[int(np.argmin(errors))]
    assert check("ch1.ex7", best) is True
    assert check("ch1.ex7", np.sqrt(np.finfo(float).eps)) is True    # read off the crossing
    for answer, words in [(min(errors), "smallest error"), (1e-13, "round-off"),
                          (1e-30, "round-off"), (1e-3, "truncation"), (-8.0, "exponent"),
                          (-1.0, "positive")]:
        with pytest.raises(WrongAnswer, match=words):
            check("ch1.ex7", answer)
