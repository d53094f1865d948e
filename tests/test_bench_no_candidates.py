"""bench/no_candidates.py, the ``floor`` row of bench/speed.py: irilint's CLI
with scanners that find nothing, which must never leave its empty results
where a real run would read them."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "tests" / "samples" / "sample.md"


def _run(argv, cwd):
    env = dict(os.environ)
    env.pop("IRILINT_CACHE_ROOT", None)
    env.pop("IRILINT_NO_CACHE", None)  # the cache on, as a user runs it
    return subprocess.run(argv, cwd=str(cwd), env=env, capture_output=True, text=True, timeout=120)


def test_no_candidates_finds_nothing_and_leaves_the_cache_alone(tmp_path):
    doc = tmp_path / "sample.md"
    shutil.copyfile(SAMPLE, doc)
    stub = _run([sys.executable, str(REPO / "bench" / "no_candidates.py"), "check", "sample.md"], tmp_path)
    assert stub.returncode == 0, stub.stderr
    assert "No problems found in 1 file." in stub.stdout + stub.stderr
    assert not (tmp_path / ".irilint_cache").exists()  # its cache was its own, and is gone

    real = _run([sys.executable, "-m", "irilint", "check", "sample.md"], tmp_path)
    assert real.returncode == 1, real.stderr
    assert "Found 11 problems." in real.stdout + real.stderr
