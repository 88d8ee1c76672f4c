"""Shared test configuration.

Hypothesis runs derandomized: the same examples on every run, so CI cannot turn red by chance;
a failure found once is found again. ``HYPOTHESIS_PROFILE=explore`` draws fresh random examples.
"""
import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
