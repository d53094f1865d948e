"""The hypothesis settings of the fuzz tests: the profile named by
``IRILINT_FUZZ_PROFILE`` (``ci`` by default, ``long`` by hand), registered
in ``tests/fuzz/conftest.py``."""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

PROFILE = os.environ.get("IRILINT_FUZZ_PROFILE", "ci")


def fuzz_settings(scale: float = 1.0) -> settings:
    """The profile's settings, with ``max_examples`` scaled by ``scale``
    (tests that run many formats per example use less)."""
    try:
        base = settings.get_profile(PROFILE)
    except Exception:  # the conftest did not run (module imported alone)
        base = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    return settings(base, max_examples=max(1, int(base.max_examples * scale)))
