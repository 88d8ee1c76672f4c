"""Tests of liedyn.teach.plot with the Agg backend: the figures exist, are labelled and show the
model."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.animation import FuncAnimation  # noqa: E402

from liedyn.kinematics import forward_kinematics  # noqa: E402
from liedyn.robots import double_pendulum, pendulum, random_tree, serial_chain  # noqa: E402
from liedyn.simulation import Trajectory, simulate  # noqa: E402
from liedyn.teach.plot import animate, draw, plot_energy  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def line_points(ax):
    """All vertices of the 3D lines of ``ax``, (n, 3)."""
    pts = [np.array(line.get_data_3d()).T for line in ax.get_lines()]
    return np.concatenate([p for p in pts if len(p)])


def test_draw_labels_and_equal_aspect():
    model = serial_chain(4)
    ax = draw(model, np.array([0.3, 0.5, -0.4, 0.2]))
    assert ax.name == "3d"
    assert (ax.get_xlabel(), ax.get_ylabel(), ax.get_zlabel()) == ("x (m)", "y (m)", "z (m)")
    assert ax.get_title() == model.name
    spans = [np.diff(lim)[0] for lim in (ax.get_xlim(), ax.get_ylim(), ax.get_zlim())]
    assert np.allclose(spans, spans[0])
    assert np.allclose(ax.get_box_aspect() / ax.get_box_aspect()[0], 1.0)


def test_draw_puts_every_frame_origin_on_a_line():
    rng = np.random.default_rng(0)
    model = random_tree(5, rng)
    q = model.random_configuration(rng)
    ax = draw(model, q, frames=False)
    pts = line_points(ax)
    for origin in forward_kinematics(model, q).T_world[:, :3, 3]:
        assert np.min(np.linalg.norm(pts - origin, axis=1)) < 1e-12
    # links: parent origin -> child origin, one per body, plus the centre-of-mass arms and dots
    assert len(ax.get_lines()) == 3 * model.nbodies


def test_draw_frames_adds_rgb_triads():
    model = double_pendulum()
    with_frames = draw(model, [0.5, 0.5], frames=True)
    n = len(with_frames.get_lines())
    assert n == 3 * model.nbodies + 3 * (model.nbodies + 1)
    colors = {matplotlib.colors.to_hex(ln.get_color()) for ln in with_frames.get_lines()}
    assert {"#d62728", "#2ca02c", "#1f77b4"} <= colors            # tab:red, green, blue


def test_draw_into_given_axes_and_bad_input():
    fig = plt.figure()
    ax = fig.add_subplot(projection="3d")
    assert draw(pendulum(), [0.2], ax=ax) is ax
    with pytest.raises(ValueError, match="3D"):
        draw(pendulum(), [0.2], ax=fig.add_subplot(2, 2, 1))
    with pytest.raises(ValueError, match="one configuration"):
        draw(pendulum(), [[0.2], [0.3]])
    with pytest.raises(ValueError, match="q"):
        draw(pendulum(), [0.2, 0.3])


def test_gravity_axis_is_vertical():
    ax = draw(pendulum(), [0.2])                     # planar model, gravity along -y
    assert ax._vertical_axis == 1
    ax = draw(serial_chain(2), [0.2, 0.1])           # gravity along -z
    assert ax._vertical_axis == 2


def test_animate_frames_and_html():
    model = double_pendulum()
    traj = simulate(model, [1.0, 0.5], [0.0, 0.0], 0.02, steps=150)
    anim = animate(model, traj)
    assert isinstance(anim, FuncAnimation)
    n = len(list(anim.new_frame_seq()))
    assert n == 38 and n < 60                        # stride 4 keeps the page small
    ax = anim._fig.axes[0]                           # the figure animate created
    assert (ax.get_xlabel(), ax.get_ylabel(), ax.get_zlabel()) == ("x (m)", "y (m)", "z (m)")
    small = animate(model, traj, stride=75)
    html = small.to_jshtml()
    assert "<script" in html and html.count("data:image/png;base64") == 3
    assert "http" not in html and "font-awesome" not in html and 'class="fa' not in html
    assert "&#9654;" in html                          # the play button, as a character
    assert ax.get_title() == "double pendulum, t = 0.00 s"
    anim._draw_was_started = True                    # not rendered on purpose: no warning


def test_animate_follows_the_motion():
    model = pendulum()
    traj = simulate(model, [1.0], [0.0], 0.05, steps=20)
    fig = plt.figure()
    ax = fig.add_subplot(projection="3d")
    anim = animate(model, traj, stride=10, ax=ax, frames=False)
    anim.to_jshtml()                                 # renders frames 0, 1, 2; the last stays
    bob = np.array(ax.get_lines()[2].get_data_3d()).ravel()
    T = forward_kinematics(model, traj.q[20]).T_world[1]
    np.testing.assert_allclose(bob, T[:3, :3] @ [0, -1.0, 0] + T[:3, 3], atol=1e-12)
    assert ax.get_title() == "pendulum, t = 1.00 s"


def test_animate_bad_input():
    model = double_pendulum()
    batch = simulate(model, np.array([[1.0, 0.5], [1.0, 0.6]]), np.zeros(2), 0.05, steps=4)
    with pytest.raises(ValueError, match="one initial state"):
        animate(model, batch)
    one = Trajectory(batch.t, batch.q[:, 0], batch.dq[:, 0], batch.energy[:, 0])
    for stride in (0, 1.5, -2):
        with pytest.raises(ValueError, match="stride"):
            animate(model, one, stride=stride)


def test_plot_energy():
    model = pendulum()
    traj = simulate(model, [1.0], [0.0], 0.05, steps=40, method="euler")
    ax = plot_energy(traj)
    assert ax.get_xlabel() == "time t (s)"
    assert "E(t) - E(0)" in ax.get_ylabel()
    t, y = ax.get_lines()[0].get_data()
    np.testing.assert_allclose(t, traj.t)
    np.testing.assert_allclose(y, traj.energy - traj.energy[0])
    ax2 = plot_energy(traj, drift=False, label="Euler")
    assert ax2.get_ylabel() == "total energy E (J)"
    assert ax2.get_legend().get_texts()[0].get_text() == "Euler"
    batch = simulate(model, np.array([[0.5], [1.0], [1.5]]), [0.0], 0.05, steps=10)
    assert len(plot_energy(batch).get_lines()) == 3
