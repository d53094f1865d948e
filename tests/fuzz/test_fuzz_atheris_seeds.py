"""The atheris harness's one-input function on its seeds, so that it keeps
working (atheris itself is not a CI dependency: skipped without it)."""
from __future__ import annotations

import pytest

pytest.importorskip("atheris")

import atheris_harness as harness  # noqa: E402
import invariants as inv  # noqa: E402


@pytest.mark.parametrize("seed", harness.SEEDS, ids=range(len(harness.SEEDS)))
def test_seed_passes_the_invariants(seed):
    harness.one_input(seed)


def test_every_format_is_reachable():
    # the first byte chooses the format: every format is one byte away
    assert {harness.pick(bytes([i]) + b"x")[0] for i in range(256)} == set(inv.formats())


def test_a_violation_raises(monkeypatch):
    """The harness must report a broken invariant, not swallow it."""
    from irilint.scanners.base import Candidate
    from irilint.scanners.text import TextScanner

    def bad_scan(self, text):  # a scanner that reports a span past the end
        return [Candidate(0, len(text) + 1, text + "x")]

    monkeypatch.setattr(TextScanner, "scan", bad_scan)
    with pytest.raises(AssertionError, match="candidate outside the document"):
        harness.one_input(b"\x00http://e.org/")
