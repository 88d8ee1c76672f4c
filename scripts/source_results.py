"""Every numbered equation and named result of the four sources beside Kim (2012).

Read by scripts/equation_map.py. Kim (2012) is listed there (its equations and tables are
numbered 1-92 and 1-7). Here:

* ``FROM_SECTIONS``: From (2012), its sections and the numbered equations in each, and
  ``FROM_REASONS``, why an equation that the book does not label or check is left out;
* ``RESULTS[source]``: the named results of each source (From's propositions, lemmas and
  definitions; the properties, lemmas, theorems, definitions and examples of the notes on
  Murray, Li and Sastry; the slides of Zhang's lecture; the sections of the RNEA notes, which
  number no equations), each a :class:`Result`.

A result counts as

* *implemented* when a public liedyn function's docstring cites one of its ``cites``
  (e.g. ``("other", "Property 2")`` for "Murray, Li and Sastry, Ch. 4, Property 2") or it names
  functions in ``code`` (for functions that cite the source only as a whole);
* *derived/checked* when the book defines the label ``<source>-res-<slug>`` or one of
  ``labels``, when a code comment cites one of ``cites``, or when the phrase of ``found``
  occurs in that chapter (the chapter, e.g. "book/06_equations_of_motion", and the phrase);
* *not covered* otherwise, and then ``reason`` must say why (tests/book/test_equation_map.py).
"""
from collections import namedtuple

Result = namedtuple("Result", "section slug title cites labels code found reason",
                    defaults=((), (), (), (), None))

# From (2012): (section, title, first equation, last equation)
FROM_SECTIONS = [
    ("2.1", "Motion of single rigid bodies", 1, 11),
    ("2.2", "The Boltzmann-Hamel equations of motion", 12, 31),
    ("2.3", "The Coriolis matrix as shown in Duindam and Stramigioli (2008)", 32, 37),
    ("3", "Derivation of the Coriolis matrix", 38, 57),
    ("4", "The most important configuration spaces", 58, 61),
    ("4.1", "SO(3)", 62, 71),
    ("4.2", "SE(3)", 72, 76),
    ("4.3", "SE(2)", 77, 87),
    ("4.4", "The Schoenflies group", 88, 96),
    ("5", "A general theorem for rigid body dynamics", 97, 112),
]
FROM_TABLES = [("4.7", 1), ("4.7", 2)]
FROM_REASONS = [
    ((14, 25), "steps of the proof of Proposition 2.1, whose result From's eq. (26) is derived and "
               "checked"),
    ((6, 6), "the cross-product matrix, Kim (2012), From's eq. (5), derived in chapter 1"),
    ((27, 28), "From's eq. (27) renames the bracket of From's eq. (26) with the matrices "
               "gamma_k of From's eq. (46); From's eq. (28) is From's eq. (12) for local "
               "coordinates; both enter From's eq. (57)"),
    ((30, 31), "From's eqs. (20)-(21) restated for local coordinates; their result From's "
               "eq. (57) is checked"),
    ((32, 32), "the form of From's eq. (48), here with the Coriolis matrix of From's eq. (33)"),
    ((34, 37), "consequences of the wrong From's eq. (33): checked as an erratum through "
               "From's eq. (33)"),
    ((38, 56), "index bookkeeping of the proof of Proposition 3.1; its result From's eq. (57) is "
               "implemented and checked"),
    ((61, 61), "the pose-dependent inertia of spatial velocities; the book uses body "
               "velocities (Kim (2012), From's eq. (21) is the same transformation)"),
    ((62, 67), "the SO(3) case of From's eqs. (58), (29), (60) and (57), which are checked "
               "for every group"),
    ((69, 71), "Euler's equations, the same as From's eqs. (1)-(5)"),
    ((72, 72), "From's eq. (29) for SE(3)"),
    ((75, 76), "From's eq. (48) with From's eq. (74), and From's eq. (11)"),
    ((77, 81), "the SE(2) case of From's eqs. (58), (8), (29) and (57), checked for every group"),
    ((84, 85), "From's eq. (48) with From's eq. (82), and Newton-Euler on SE(2)"),
    ((87, 87), "From's eq. (86) written out"),
    ((88, 92), "the Schoenflies case of From's eqs. (58), (8), (29) and (57), checked for "
               "every group"),
    ((94, 96), "From's eq. (48) with From's eq. (93), and Newton-Euler on the Schoenflies group"),
    ((97, 100), "definitions and lemmas of Section 5 (see the named results below)"),
    ((102, 112), "the proof of Proposition 5.1, whose statement From's eqs. (107)-(108) "
                 "holds for every group: checked as C(v) v = -ad*_v M v"),
]
NOT_A_CONTROL_CHAPTER = ("a control law that the control chapter (12) does not take up: it "
                         "implements computed torque, PD with gravity compensation, the "
                         "passivity-based and operational-space controllers")

RESULTS = {
    "from": [
        Result("2.2", "proposition-2.1", "Proposition 2.1: Boltzmann-Hamel equations",
               cites=(("other", "Proposition 2.1"), ("eq", "26"))),
        Result("3", "proposition-3.1", "Proposition 3.1: the Coriolis matrix",
               cites=(("other", "Proposition 3.1"), ("eq", "57"))),
        Result("4", "definition-4.1", "Definition 4.1: globally parametrized transformation",
               cites=(("other", "Definition 4.1"), ("other", "Definition 4.1-4.2"))),
        Result("4", "definition-4.2", "Definition 4.2: selection matrix H",
               cites=(("other", "Definition 4.2"), ("other", "Definition 4.1-4.2"),
                      ("eq", "58"))),
        Result("4.2", "se3-components", "SE(3) equations written out for a diagonal M "
               "(unnumbered, after From's eq. (76))"),
        Result("4.5", "r3", "Translational motion R^3 (unnumbered)",
               code=("liedyn.body.GROUPS",)),
        Result("4.6", "lower-dimensional-groups", "Lower-dimensional groups R^2, R, H, SO(2)",
               code=("liedyn.body.helical_group",)),
        Result("5", "definition-5.1", "Definition 5.1: the matrix x-bar",
               cites=(("other", "Definition 5.1"), ("eq", "97"))),
        Result("5", "lemma-5.1", "Lemma 5.1: swapping x-bar y = y-bar x",
               cites=(("other", "Lemma 5.1"),)),
        Result("5", "lemma-5.2", "Lemma 5.2: Lemma 5.1 for affine combinations",
               cites=(("other", "Lemma 5.2"), ("eq", "99"))),
        Result("5", "lemma-5.3", "Lemma 5.3: the two halves of From's eq. (57) are equal",
               cites=(("other", "Lemma 5.3"), ("eq", "101"))),
        Result("5", "proposition-5.1", "Proposition 5.1: M dv - ad_v^T M v = M dv + ad~_(Mv) v",
               cites=(("other", "Proposition 5.1"), ("eq", "107"), ("eq", "108"))),
    ],
    "mls": [
        Result("2", "particle", "A simple example: Newton's and Lagrange's equations of a "
               "particle", labels=("mls-eq-lagrange",)),
        Result("2", "lagrange", "Lagrange's equations of a multibody system",
               labels=("mls-eq-lagrange",)),
        Result("2", "pendulum", "Example: pendulum equation", labels=("mls-eq-pendulum",)),
        Result("2", "spherical-pendulum", "Example: a spherical pendulum",
               labels=("mls-eq-spherical-pendulum",)),
        Result("2", "kinetic-energy", "Kinetic energy of a rigid body, M^b",
               reason="the same result as Kim (2012), eqs. (14)-(22), derived in chapter 2"),
        Result("2", "rectangular-object", "Example: M^b for a rectangular object",
               code=("liedyn.inertia.box_inertia",)),
        Result("2", "change-of-frame", "M^b under change of frames, M_2 = Ad^T M_1 Ad",
               code=("liedyn.inertia.transform_inertia",)),
        Result("2", "planar-arm", "Example: dynamics of a 2-dof planar robot",
               labels=("mls-eq-planar-arm",)),
        Result("3", "open-chain", "Dynamics of open-chain manipulators: M = sum J^T M J, the "
               "Christoffel symbols", labels=("mls-eq-christoffel",)),
        Result("3", "property-1", "Property 1: M symmetric positive definite, dM/dt - 2C skew",
               cites=(("other", "Property 1"),),
               found=(("book/06_equations_of_motion", "the notes' Property 1"),)),
        Result("3", "planar-arm-christoffel", "Example: planar 2-DoF robot (continued), "
               "Gamma_ijk and dM/dt - 2C", labels=("mls-eq-planar-arm",)),
        Result("3", "3dof-robot", "Example: dynamics of a 3-dof robot",
               found=(("book/06_equations_of_motion", "Dynamics of a 3-dof robot"),)),
        Result("3", "property-2", "Property 2: M_ij and dM_ij/dtheta_k in product-of-"
               "exponentials form", cites=(("other", "Property 2"),)),
        Result("4", "newton-euler", "Newton-Euler equations in the spatial and body frames",
               reason="the same result as Kim (2012), eqs. (30)-(31), derived in chapter 2"),
        Result("4", "property-3", "Property 3: Ad_g [xi_1, xi_2] = [Ad_g xi_1, Ad_g xi_2]",
               cites=(("other", "Property 3"),)),
        Result("4", "coordinate-invariance", "Coordinate invariance of the Newton-Euler "
               "equations", labels=("mls-eq-velocity",)),
        Result("4", "recursions", "Forward and backward recursions",
               labels=("mls-eq-velocity", "mls-eq-acceleration", "mls-eq-force")),
        Result("4", "closed-form", "M = xi^T G^T M G xi, C, phi, J_t",
               labels=("mls-eq-closed-form",), code=("liedyn.closed_form.closed_form_matrices",)),
        Result("4", "property-4", "Property 4: Gamma^n = 0, G = (1 - Gamma)^-1",
               labels=("mls-eq-property4",), code=("liedyn.closed_form.property4",)),
        Result("4", "square-root", "Square-root factorization of M (articulated-body inertia)",
               code=("liedyn.forward_dynamics.mass_matrix_factor",)),
        Result("5", "holonomic", "Definition: holonomic constraints, T_q Q, constraint forces",
               found=(("book/09_constrained_dynamics",
                       "A holonomic constraint as a Pfaffian one"),)),
        Result("5", "pfaffian", "Definition: Pfaffian constraints",
               code=("liedyn.constraints.Pfaffian",)),
        Result("5", "integrability", "Definition: a Pfaffian constraint is holonomic iff its "
               "distribution is involutive",
               found=(("book/09_constrained_dynamics", "not involutive"),)),
        Result("5", "lagrange-multipliers", "Lagrange's equations with constraints, explicit "
               "multipliers lambda",
               found=(("book/09_constrained_dynamics", "Murray's form: the sign of"),)),
        Result("5", "constrained-pendulum", "Example: the planar pendulum as a constrained "
               "particle, tension",
               found=(("book/09_constrained_dynamics", "Murray's Cartesian pendulum"),)),
        Result("5", "theorem-1", "Theorem 1 (d'Alembert's principle)",
               cites=(("other", "Theorem 1"),)),
        Result("5", "theorem-2", "Theorem 2 (Lagrange-d'Alembert equation)",
               found=(("book/09_constrained_dynamics", "Lagrange-d'Alembert principle"),)),
        Result("5", "rolling-disk", "Example: dynamics of a rolling disk",
               labels=("sec-ch9-rolling-disk",), code=("liedyn.robots.rolling_disk",)),
        Result("5", "constrained-lagrangian", "Nature of nonholonomic constraints: the "
               "constrained Lagrangian L_c"),
        Result("5", "metric", "Metric, duality and orthogonality on T_q E",
               found=(("book/09_constrained_dynamics", "is a metric on the ambient space"),)),
        Result("5", "property-5", "Property 5: M^flat and M^sharp are M and M^-1",
               cites=(("other", "Property 5"),)),
        Result("5", "property-6", "Property 6: M^sharp maps T*Q to TQ and T*Q-perp to TQ-perp",
               cites=(("other", "Property 6"),)),
        Result("5", "property-7", "Property 7: ker h_* = T_q Q, h^* onto T*Q-perp",
               cites=(("other", "Property 7"),)),
        Result("5", "lemma-1", "Lemma 1: the projections P_omega and P_T",
               cites=(("other", "Lemma 1"),)),
        Result("5", "lemma-2", "Lemma 2: P_omega M = M P_T, P_T = P_omega^T",
               cites=(("other", "Lemma 2"),),
               found=(("book/09_constrained_dynamics", "Lemma 2 of the notes"),)),
        Result("5", "projected-dynamics", "Definitions: dynamics in T*Q and in T*Q-perp",
               found=(("book/09_constrained_dynamics",
                       "into the dynamics on the allowed motions"),)),
        Result("5", "second-fundamental-form", "Geometric interpretation: the second "
               "fundamental form S(dq, dq)"),
        Result("5", "hybrid-control", "Definition: hybrid position/force control",
               reason=NOT_A_CONTROL_CHAPTER),
        Result("5", "spherical-pendulum-projections", "Dynamics of a spherical pendulum: "
               "P_omega, P_T and S(dq, dq)",
               found=(("book/09_constrained_dynamics",
                       "the centripetal acceleration of a point moving on a sphere"),)),
        Result("5", "control-algorithm", "Control algorithm (holonomic and nonholonomic)"),
        Result("5", "sphere-contact", "Example: 6-DoF manipulator on a sphere with "
               "frictionless point contact"),
        Result("5", "sphere-rolling", "Example: 6-DoF manipulator rolling on a sphere",
               labels=("mls-res-sphere-contact",)),
        Result("5", "parallel-manipulator", "Example: redundant parallel manipulator"),
        Result("5", "gauge-invariant", "Gauge-invariant formulation (Aghili): v = W^T dq, "
               "dv + Gamma v = u, constraints by the SVD of Lambda"),
        Result("5", "gauge-invariant-control", "Gauge-invariant hybrid position/force control "
               "(composite error)", reason=NOT_A_CONTROL_CHAPTER),
    ],
    "zhang": [
        Result("Introduction", "spatial-vectors", "Spatial acceleration, wrench, momentum, "
               "inertia, joint torque tau = S^T F",
               reason="the same results as Kim (2012), eqs. (9)-(31), derived in chapters 1-2"),
        Result("Preview", "eom-preview", "tau = M ddq + c~ + tau_g + J^T F_ext; forward and "
               "inverse dynamics", labels=("zhang-eq-eom",)),
        Result("RNEA", "forward-pass", "Velocity and acceleration propagation (forward pass)",
               code=("liedyn.kinematics.forward_pass",)),
        Result("RNEA", "backward-pass", "Force propagation (backward pass): bodies 4 and 2 of "
               "the four-body tree"),
        Result("RNEA", "rnea", "Recursive Newton-Euler algorithm, gravity as A_0 = -A_g",
               code=("liedyn.inverse_dynamics.rnea",)),
        Result("Structures", "body-jacobians", "Body Jacobians J_i (Structures 1/3)",
               code=("liedyn.kinematics.body_jacobian",)),
        Result("Structures", "two-body", "Two-body torque decomposition (Structures 2/3 and "
               "3/3)"),
        Result("Structures", "overall", "Overall dynamics (Zhang's eq. (1)): M = sum J^T I J, "
               "c and gravity", cites=(("eq", "1"),), labels=("zhang-eq-mass-sum",)),
        Result("Properties", "tau-roles", "tau generates motion and force: tau = J^T (I A + "
               "V x* I V) + J^T F", code=("liedyn.crba.bias_force",)),
        Result("Forward dynamics", "fd-problem", "Forward dynamics problem (Zhang's eq. (2))",
               cites=(("eq", "2"),), labels=("zhang-eq-eom",)),
        Result("Forward dynamics", "c-and-m-by-rnea", "c~ and the columns of M by the RNEA",
               labels=("zhang-eq-bias", "zhang-eq-columns")),
        Result("Forward dynamics", "complexity", "Complexity: RNEA O(N), M O(N^2), M^-1 "
               "O(N^3), ABA O(N)",
               found=(("book/07_forward_dynamics",
                       "Zhang's lecture {cite}`zhang_lecture9` counts the costs"),)),
        Result("More discussions", "two-c-matrices", "Many C with the same C dq; the "
               "Christoffel C makes dM/dt - 2C skew"),
        Result("More discussions", "linearity", "M, C, tau_g linear in the inertias: "
               "identification by least squares",
               code=("liedyn.regressor.joint_torque_regressor",)),
    ],
    "rnea": [
        Result("1", "definitions", "Frames, homogeneous transformations, M_{i,i+1} = "
               "M_{0,i}^-1 M_{0,i+1}", code=("liedyn.joints.Screw",)),
        Result("2", "screw-axes", "Screw axes A_i = Ad_{M_{0,i}^-1} S_i; twists and wrenches",
               code=("liedyn.robots.two_link_arm",)),
        Result("3", "operators", "Ad_T, ad_V and ad_V^T in (w, v) order",
               reason="the same operators as Kim (2012), eqs. (7), (27), (29), derived in "
                      "chapter 1"),
        Result("4", "compact-rnea", "The RNEA in compact form with T = exp(-[A] theta) M",
               found=(("book/05_inverse_dynamics", "The component form of the RNEA notes"),)),
        Result("5-7", "component-form", "The expanded component form (omega, v, n, f) and its "
               "summary", found=(("book/05_inverse_dynamics",
                                  "The component form of the RNEA notes"),)),
        Result("8", "two-link", "Example: the 2-link robot, forward and backward iteration",
               found=(("book/05_inverse_dynamics", "two_link_arm"),)),
        Result("9-10", "quadratic-terms", "Velocity-quadratic terms and the detailed "
               "calculations of n_2, f_2, tau_2, tau_1",
               found=(("book/05_inverse_dynamics", "quadratic"),)),
        Result("11", "structure", "Structure of the equations of motion",
               reason="the same result as Kim (2012), eq. (32), derived in chapter 6"),
        Result("Appendix", "identities-skew", "Skew-symmetric identities: [a]b = -[b]a, "
               "[a][b] = b a^T - a^T b I, [Ra] = R[a]R^T, the triple product"),
        Result("Appendix", "identities-adjoint", "Adjoint identities: Ad_{T1 T2}, Ad_T^-1, "
               "(Ad_T)^T, d/dt Ad_T = Ad_T ad_Vb"),
    ],
}
