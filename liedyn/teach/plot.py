"""Matplotlib pictures of a model: stick figures, animations and energy plots.

The "uninteresting code" of the book's figures lives here, out of the derivation
cells. A stick figure draws, for every body ``i``, a line from the origin of its
parent's frame to the origin of its own frame ``{i}`` (the joint), a thinner line
from that origin to the body's centre of mass with a dot whose size grows with the
mass, and the axes of ``{i}`` as a small red-green-blue triad (x, y, z). Poses come
from :func:`liedyn.kinematics.forward_kinematics`,
``T_{0,i} = T_{0,lambda(i)} T_{lambda(i),i}`` (Kim (2012), Section 2.1).

Import ``matplotlib`` with the backend you want before using these (the tests use
``Agg``).

Derived in :ref:`sec-forward-dynamics`.
"""
import re

import numpy as np

from ..kinematics import forward_kinematics

__all__ = ["draw", "animate", "plot_energy"]

_TRIAD_COLORS = ("tab:red", "tab:green", "tab:blue")


def _centres_of_mass(model):
    """Centre of mass of each body in its own frame (from ``m [c]`` in Kim eq.
    (22)), and masses."""
    com, mass = [np.zeros(3)], [0.0]
    for I in model.inertias[1:]:
        m = float(I[3, 3])
        mass.append(m)
        com.append(
            np.array([I[2, 4], I[0, 5], I[1, 3]]) / m if m > 0 else np.zeros(3))
    return np.array(com), np.array(mass)


class _Stick:
    """The artists of one stick figure, and how to move them to a new
    configuration."""

    def __init__(self, model, ax, frames, scale):
        self.model, self.ax, self.frames, self.scale = model, ax, frames, scale
        self.com, self.mass = _centres_of_mass(model)
        n = model.nbodies
        self.links = [
            ax.plot([], [], [], "-", color="0.25", lw=2.5, solid_capstyle="round")[
                0]
            for _ in range(n)]
        self.arms = [
            ax.plot([], [], [], "-", color="0.45", lw=1.2)[0] for _ in range(n)]
        big = max(self.mass.max(), 1e-12)
        self.bobs = [ax.plot([], [], [], "o", color="tab:orange",
                             ms=4 + 8 * np.sqrt(m / big), mec="k", mew=0.5)[0]
                     for m in self.mass[1:]]
        self.triads = (
            [
                [
                    ax.plot([], [], [], "-", color=c, lw=1.2)[0]
                    for c in _TRIAD_COLORS]
                for _ in range(n + 1)]
            if frames
            else [])

    def points(self, Tw):
        """Frame origins and world centres of mass, (N+1, 3) each, for poses ``Tw``
        (N+1, 4, 4)."""
        origins = Tw[:, :3, 3]
        coms = np.einsum("nij,nj->ni", Tw[:, :3, :3], self.com) + origins
        return origins, coms

    def update(self, Tw):
        origins, coms = self.points(Tw)
        for i in range(1, self.model.nbodies + 1):
            a, b = origins[self.model.parent[i]], origins[i]
            self.links[i - 1].set_data_3d([a[0], b[0]], [a[1], b[1]], [a[2], b[2]])
            c = coms[i]
            self.arms[i - 1].set_data_3d([b[0], c[0]], [b[1], c[1]], [b[2], c[2]])
            self.bobs[i - 1].set_data_3d([c[0]], [c[1]], [c[2]])
        for i, triad in enumerate(self.triads):
            o, R = origins[i], Tw[i, :3, :3]
            for axis, line in enumerate(triad):
                e = o + self.scale * R[:, axis]
                line.set_data_3d([o[0], e[0]], [o[1], e[1]], [o[2], e[2]])
        artists = (
            self.links
            + self.arms
            + self.bobs
            + [ln for t in self.triads for ln in t])
        return artists


def _setup_axes(ax, points, model):
    """Labelled axes with equal scales, a cube around ``points`` (..., 3), gravity
    pointing down."""
    pts = np.asarray(points).reshape(-1, 3)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    centre, half = (lo + hi) / 2, max(float(np.max(hi - lo)) / 2, 0.1) * 1.1
    ax.set_xlim(centre[0] - half, centre[0] + half)
    ax.set_ylim(centre[1] - half, centre[1] + half)
    ax.set_zlim(centre[2] - half, centre[2] + half)
    ax.set_box_aspect((1, 1, 1))
    g = np.abs(model.gravity)
    vertical = "xyz"[int(np.argmax(g))] if g.max() > 0 else "z"
    ax.view_init(elev=20, azim=-60, vertical_axis=vertical)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_zlabel("z (m)")


def _new_axes(ax):
    if ax is not None:
        if getattr(ax, "name", "") != "3d":
            raise ValueError("argument 'ax': expected a 3D axes (projection='3d')")
        return ax
    import matplotlib.pyplot as plt
    fig = plt.figure(figsize=(4.5, 4.5))
    return fig.add_subplot(projection="3d")


def _frame_scale(model, Tw, com):
    size = (
        np.ptp(np.concatenate([Tw[:, :3, 3], com]), axis=0).max()
        if len(Tw) > 1
        else 1.0)
    return 0.12 * max(float(size), 0.2)


def draw(model, q, ax=None, frames=True, title=None):
    """Draw a stick figure of ``model`` at configuration ``q`` in a 3D matplotlib
    axes.

    Body poses by forward kinematics, ``T_{0,i} = T_{0,lambda(i)} T_{lambda(i),i}``
    (Kim (2012), Section 2.1).

    Parameters
    ----------
    model : liedyn.model.Model
    q : (nq,) array
        one configuration (no batch dimensions)
    ax : mpl_toolkits.mplot3d.axes3d.Axes3D, optional
        where to draw (default: a new figure)
    frames : bool
        draw the body frames ``{i}`` as red-green-blue (x-y-z) triads
    title : str, optional
        default: the model's name

    Returns
    -------
    ax : the 3D axes, with labelled axes (m) and equal scales; the view puts the
    axis of
        gravity vertical

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from liedyn.robots import double_pendulum
    >>> ax = draw(double_pendulum(), [0.5, 0.5])
    >>> ax.get_xlabel(), ax.get_zlabel()
    ('x (m)', 'z (m)')
    """
    q = model.check_q(q)
    if q.ndim != 1:
        raise ValueError("argument 'q': draw takes one configuration, shape "
                         f"({model.nq},); got {q.shape}")
    ax = _new_axes(ax)
    Tw = forward_kinematics(model, q).T_world
    stick = _Stick(model, ax, frames, 1.0)
    origins, coms = stick.points(Tw)
    stick.scale = _frame_scale(model, Tw, coms)
    stick.update(Tw)
    _setup_axes(ax, np.concatenate([origins, coms]), model)
    ax.set_title(model.name if title is None else title)
    return ax


# matplotlib's JavaScript player draws its buttons with Font Awesome icons loaded
# from a CDN; the book is read offline, so the icons become plain characters and the
# stylesheet goes.
_ICONS = [
    ("fa fa-play fa-flip-horizontal", "&#9664;"),
    ("fa fa-fast-backward", "&#8676;"),
    ("fa fa-step-backward", "|&#9664;"),
    ("fa fa-pause", "&#10074;&#10074;"),
    ("fa fa-play", "&#9654;"),
    ("fa fa-step-forward", "&#9654;|"),
    ("fa fa-fast-forward", "&#8677;"),
    ("fa fa-minus", "&minus;"),
    ("fa fa-plus", "+"),
]


def _offline(html):
    html = re.sub(
        r'<link rel="stylesheet"\s*href="https?://[^"]*font-awesome[^"]*">', "",
        html)
    for icon, text in _ICONS:
        html = html.replace(f'<i class="{icon}"></i>', text)
    return html


def _animation_class():
    from matplotlib.animation import FuncAnimation

    class Animation(FuncAnimation):
        """A FuncAnimation whose ``to_jshtml()`` loads nothing from the web."""

        def to_jshtml(self, *args, **kwargs):
            return _offline(super().to_jshtml(*args, **kwargs))
    return Animation


def animate(model, trajectory, stride=None, ax=None, frames=True, max_frames=50):
    """Animate a simulated :class:`~liedyn.simulation.Trajectory` of ``model`` as a
    stick figure.

    Every ``stride``-th sample becomes a frame (default: at most ``max_frames``
    frames, which keeps ``anim.to_jshtml()`` small enough for a static web page).
    The axes limits are fixed to the bounding box of the whole motion. Poses by
    forward kinematics (Kim (2012), Section 2.1), computed for all frames in one
    batched call.

    Parameters
    ----------
    model : liedyn.model.Model
    trajectory : liedyn.simulation.Trajectory
        with ``q`` of shape (steps + 1, nq) (one initial state; select one from a
        batch first)
    stride : int, optional
    ax : 3D axes, optional
    frames : bool
        draw the body frames as RGB triads
    max_frames : int
        used to choose the default stride

    Returns
    -------
    matplotlib.animation.FuncAnimation
        show it in a notebook with ``IPython.display.HTML(anim.to_jshtml())``: a
        self-contained JavaScript player (its ``to_jshtml`` is matplotlib's without
        the Font Awesome stylesheet that matplotlib loads from a CDN, so the page
        works offline)

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from liedyn.robots import pendulum
    >>> from liedyn.simulation import simulate
    >>> model = pendulum()
    >>> traj = simulate(model, [1.0], [0.0], dt=0.01, steps=100)
    >>> anim = animate(model, traj, stride=50)                 # 3 frames
    >>> "<script" in anim.to_jshtml()
    True
    """
    t, Q = np.asarray(trajectory.t), np.asarray(trajectory.q)
    if Q.ndim != 2 or Q.shape[-1] != model.nq:
        raise ValueError("argument 'trajectory': expected q of shape (steps + 1, "
                         f"{model.nq}) (one initial state), got {Q.shape}; select "
                         "one with Trajectory(t, q[:, k], dq[:, k], energy[:, k])")
    if stride is None:
        stride = max(1, int(np.ceil(len(t) / max_frames)))
    if isinstance(stride, bool) or int(stride) != stride or stride < 1:
        raise ValueError("argument 'stride': expected a "
                         f"positive integer, got {stride!r}")
    stride = int(stride)
    idx = np.arange(0, len(t), stride)
    ax = _new_axes(ax)
    Tw = forward_kinematics(model, Q[idx]).T_world             # (frames, N+1, 4, 4)
    stick = _Stick(model, ax, frames, 1.0)
    pts = [np.concatenate(stick.points(T)) for T in Tw]
    stick.scale = _frame_scale(model, Tw[0], pts[0][model.nbodies + 1:])
    _setup_axes(ax, np.stack(pts), model)
    title = ax.set_title("")

    def frame(k):
        title.set_text(f"{model.name}, t = {t[idx[k]]:.2f} s")
        return stick.update(Tw[k]) + [title]

    frame(0)
    dt = float(t[idx[1]] - t[idx[0]]) if len(idx) > 1 else 0.05
    interval = float(np.clip(1000 * dt, 20, 200))
    return _animation_class()(ax.figure, frame, frames=len(idx), interval=interval,
                              blit=False)


def plot_energy(trajectory, ax=None, drift=True, label=None):
    """Plot the total energy of a :class:`~liedyn.simulation.Trajectory` against
    time.

    The energy is kinetic plus potential, Kim (2012), eq. (15) plus the gravity
    potential; with no torques, damping or external wrenches it is constant, so
    ``drift=True`` (default) plots ``E(t) - E(0)``, the integrator's error.

    Parameters
    ----------
    trajectory : liedyn.simulation.Trajectory
        a batch of initial states gives one line each
    ax : matplotlib axes, optional
    drift : bool
        plot ``E(t) - E(0)`` instead of ``E(t)``
    label : str, optional
        legend label of the line(s)

    Returns
    -------
    ax : the axes, with labelled axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from liedyn.robots import pendulum
    >>> from liedyn.simulation import simulate
    >>> ax = plot_energy(simulate(pendulum(), [1.0], [0.0], dt=0.05, steps=20))
    >>> ax.get_xlabel()
    'time t (s)'
    """
    if ax is None:
        import matplotlib.pyplot as plt
        ax = plt.figure(figsize=(5.5, 3.2)).add_subplot()
    t = np.asarray(trajectory.t)
    E = np.asarray(trajectory.energy).reshape(len(t), -1)
    y = E - E[0] if drift else E
    ax.plot(t, y, label=label)
    if label is not None:
        ax.legend()
    ax.set_xlabel("time t (s)")
    ax.set_ylabel("energy drift E(t) - E(0) (J)" if drift else "total energy E (J)")
    ax.set_title("Energy drift" if drift else "Total energy")
    ax.grid(True, alpha=0.3)
    return ax
