"""liedyn: the Lie-group formulation of articulated rigid-body dynamics.

The package behind the book *liedyn*: every function is derived in a chapter and
cites its equation. One namespace holds what a reader and a user reach for::

    import liedyn as ld
    model = ld.load_robot("panda")
    q, dq = model.neutral_configuration(), np.zeros(model.nv)
    tau = ld.rnea(model, q, dq, np.zeros(model.nv))   # Kim (2012), Table 2

The layout is the architecture::

    liedyn/                  the dynamics, one module per idea, in chapter order
      lie  dexp                ch. 1    SE(3): exp, log, Ad, ad; Jacobians of exp
      inertia  body            ch. 2-3  generalized inertia, one rigid body
      joint  joints  model     ch. 4    the joint interface Phi(q), S(q); the joint
                                        types; the tree of bodies
      kinematics               ch. 4    forward kinematics, twists, Jacobians
      inverse_dynamics         ch. 5    rnea: Table 2
      crba                     ch. 6    mass matrix, bias and gravity terms
      forward_dynamics         ch. 7    aba: Table 3
      hybrid_dynamics          ch. 8    hybrid: Table 4
      constraints              ch. 9    closed loops, Pfaffian constraints
      constrained_dynamics     ch. 9    their inverse, forward and hybrid dynamics
      derivatives              ch. 10   Tables 5-7 and the partials
      constrained_derivatives  ch. 10   partials of constrained forward dynamics
      simulation  control      ch. 7, 12  integrators on the manifold; control laws
      urdf  urdf_visuals       ch. 11   models and shapes from URDF files
      mjcf                     ch. 11   models from MJCF files, compiled by MuJoCo
      mujoco_coordinates       ch. 11   MuJoCo's states and forces, and liedyn's
      dh  robots               DH tables (the Puma 560); ready-made robots
      engine/                  the compiled kernels (numba), reached only through
                               engine.dispatch by the functions above
      teach/                   the book's tools: exercise checkers, plots, 3D scenes

Every algorithm has one reference implementation (the ``*_pass`` functions: numpy,
any dtype: float, complex, sympy objects, any leading batch shape) and, for float64
and complex128 input with numba installed, the compiled engine, tested equal to it.
On sympy objects the results are exact for rational input where the model's numbers
are (its integral floats count as integers) and its joints turn (a sliding joint
multiplies a rational coordinate by its float axis), and a test against a tolerance
(a pivot, a rank, a velocity) is made where the values are numbers and skipped
where they hold symbols; ``simulate`` and the least-squares branches of the
constrained dynamics take numbers only, and say so in a ``TypeError``.

Conventions (the book's notation appendix):

* twists ``V = (w, v)`` and wrenches ``F = (m, f)``: angular part / moment
  **first**, expressed in the body frame (Kim (2012), eqs. (9)-(13)). Pinocchio
  orders (v, w).
* ``T`` in SE(3) is a 4x4 homogeneous matrix; ``T_ab`` is frame {b} seen from {a}.
* ``Ad_T = [[R, 0], [[p]R, R]]``, ``Ad*_T = Ad_T^T``,
  ``ad_V = [[[w], 0], [[v], [w]]]``, ``ad*_V = ad_V^T`` (Kim eqs. (7), (8), (27),
  (29)).
* bodies 1..N in topological order, ``parent[i] < i``, 0 is the ground; gravity
  enters as the ground acceleration ``dV_0 = (0, -g)``.
"""
from . import lie, robots
from .constrained_derivatives import constrained_forward_partials
from .constrained_dynamics import (
                                   constrained_forward,
                                   constrained_hybrid,
                                   constrained_inverse,
)
from .constraints import LoopClosure, Pfaffian
from .control import (
                                   computed_torque,
                                   operational_space_control,
                                   passivity_based,
                                   pd_gravity,
                                   simulate_closed_loop,
)
from .crba import (
                                   bias_force,
                                   coriolis_matrix,
                                   gravity_torque,
                                   kinetic_energy,
                                   mass_matrix,
                                   potential_energy,
)
from .derivatives import aba_partials, hybrid_partials, rnea_partials
from .dh import from_dh, puma560, stanford_arm
from .engine.dispatch import get_num_threads, set_num_threads
from .errors import (
                                   ChartSingularityError,
                                   DivergenceError,
                                   NonFiniteResultError,
                                   URDFError,
)
from .forward_dynamics import aba, aba_pass, inverse_mass_matrix
from .hybrid_dynamics import hybrid, hybrid_pass
from .inertia import spatial_inertia
from .inverse_dynamics import rnea, rnea_pass
from .joints import (
                                   Fixed,
                                   Free,
                                   Helical,
                                   Planar,
                                   Prismatic,
                                   Revolute,
                                   Screw,
                                   Spherical,
                                   SphericalExp,
                                   SphericalZYX,
                                   Universal,
)
from .kinematics import body_jacobian, forward_kinematics, frame_jacobian
from .mjcf import MJCFError, MJCFWarning, load_mjcf
from .model import Model
from .mujoco_coordinates import f_ext_from_mujoco, from_mujoco, to_mujoco
from .simulation import Trajectory, simulate
from .urdf import available_robots, load_robot, load_urdf

__version__ = "0.1.0"
__all__ = [
    # the model
    "Model", "Revolute", "Prismatic", "Helical", "Screw", "Universal", "Planar",
    "Spherical", "SphericalZYX", "SphericalExp", "Free", "Fixed", "spatial_inertia",
    # models from files and ready-made robots
    "load_urdf", "load_robot", "available_robots", "robots", "load_mjcf",
    "from_mujoco", "to_mujoco", "f_ext_from_mujoco", "from_dh", "puma560",
    "stanford_arm",
    # kinematics
    "forward_kinematics", "body_jacobian", "frame_jacobian",
    # dynamics
    "rnea", "rnea_pass", "mass_matrix", "bias_force", "gravity_torque",
    "coriolis_matrix", "kinetic_energy", "potential_energy", "aba", "aba_pass",
    "inverse_mass_matrix", "hybrid", "hybrid_pass",
    # constrained dynamics
    "LoopClosure", "Pfaffian", "constrained_forward", "constrained_inverse",
    "constrained_hybrid",
    # partial derivatives
    "rnea_partials", "aba_partials", "hybrid_partials",
    "constrained_forward_partials",
    # simulation and control
    "simulate", "Trajectory", "computed_torque", "pd_gravity", "passivity_based",
    "operational_space_control", "simulate_closed_loop",
    # the compiled engine
    "set_num_threads", "get_num_threads",
    # the Lie-group module and the errors
    "lie", "ChartSingularityError", "DivergenceError", "NonFiniteResultError",
    "URDFError", "MJCFError", "MJCFWarning",
]
