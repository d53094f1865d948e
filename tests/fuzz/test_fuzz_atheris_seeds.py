"""The atheris harness's one-input function on its seeds, so that it keeps
working.  atheris is not a runtime or test-extra dependency (it has wheels
for few platforms); .ci/run installs it, so in CI a missing atheris fails
here, and elsewhere the test is skipped."""
from __future__ import annotations

import os

import pytest

try:
    import atheris  # noqa: F401
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("atheris is not installed (python -m pip install atheris)", allow_module_level=True)

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


_INSTRUMENTED = r"""
import sys, types
sys.path.insert(0, sys.argv[1])
import run_targets
count = run_targets.instrument_layer(sys.argv[2])
import irilint.convert, irilint.engine, irilint.iri, irilint.lines, irilint.rules.bidi, irilint.scanners.markdown

def marked(module):
    return sorted(name for name, obj in vars(module).items() if isinstance(obj, types.FunctionType)
                  and obj.__module__ == module.__name__ and "__ATHERIS_INSTRUMENTED__" in obj.__code__.co_consts)

print(count, *(m.__name__ for m in (irilint.convert, irilint.engine, irilint.iri, irilint.lines,
                                     irilint.rules.bidi, irilint.scanners.markdown) if marked(m)))
"""


@pytest.mark.parametrize("name, layer", [
    ("lsp_positions", ["irilint.lines"]),
    ("to_iri", ["irilint.convert"]),
    ("iri", ["irilint.iri"]),
    ("scan_markdown", ["irilint.scanners.markdown"]),
    # the rules are imported on the engine's first check: instrumented too
    ("engine", ["irilint.engine", "irilint.rules.bidi"]),
])
def test_only_the_target_s_layer_is_instrumented(name, layer):
    # in a child: instrumenting patches the functions of the process
    import os
    import subprocess
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run([sys.executable, "-c", _INSTRUMENTED, here, name], capture_output=True, text=True,
                         timeout=300, check=True).stdout.split()
    assert int(out[0]) > 0
    assert out[1:] == layer
