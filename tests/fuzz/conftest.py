"""Hypothesis profiles of the fuzz suite.

``ci`` (the default) keeps the whole suite to well under a minute on a
2-core machine; ``long`` is for runs by hand::

    IRILINT_FUZZ_PROFILE=long python -m pytest tests/fuzz -p no:cacheprovider

The profiles are not loaded globally (that would change every other
hypothesis test of the session): the fuzz tests decorate themselves with
``fuzz_settings()`` from :mod:`fuzz_profile`.
"""
from hypothesis import HealthCheck, settings

_COMMON = dict(deadline=None, suppress_health_check=list(HealthCheck), print_blob=True)

settings.register_profile("ci", max_examples=300, **_COMMON)
settings.register_profile("long", max_examples=20000, **_COMMON)
