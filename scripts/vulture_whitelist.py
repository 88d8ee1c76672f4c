"""What vulture (``make test``, configured in pyproject.toml) would call unused in liedyn/:
names that nothing in the package reads but that a reader, the book, the tests or the
benchmarks do, or that Python itself reads. A new entry says who uses the name.

vulture counts a name as used when this file mentions it: ``_.name`` for an attribute or a
method, the bare name for a module-level or local variable.
"""
# bare names and attribute reads are this file's whole content:
# ruff: noqa: B018, F821

# read by Python, not by liedyn: a function's docstring set after it is built, the
# callback of the XML parser, the notebook's HTML view of a scene, the list methods a
# read-only list refuses
_.__doc__
_.StartElementHandler
_._repr_html_
clear
insert
reverse

# the public results' fields and attributes and the public methods a reader calls (the
# chapters and the tests use them; the package does not need them itself)
Jt                      # closed_form: the Jacobian's transpose of the closed forms
G_series                # closed_form: the gravity term as a series
dddq_ddq_dot            # the fields of the partials' named tuples
dddq_dtau
dlam_dq
dlam_ddq_dot
dlam_dtau
dtau_ddq_dot
dtau_dinput
dddq_dinput
_.convention            # dh: the DH table's convention
_.chart_distance        # the joints: how far q is from its chart's singularity
_.keyframes             # mjcf: the model's keyframes and joint limits
_.q_lower
_.q_upper
_.velocity_limit        # urdf: the joint limits
_.enforce_mimic         # urdf: a mimic joint's coordinates from its leader's
_.subtree               # Model: the bodies under a body
_.neutral_configuration
_.euler                 # Trajectory: the integrators by name
_.semi_implicit
_.rk4
_.rkmk4
_.save                  # teach.scene: a scene written to an HTML file

# the benchmarks and the engine's tests
CHECK_OFF               # engine.drivers: a driver without its input checks (benchmarks)
_.signatures            # engine.jit: the argument types a driver has machine code for
