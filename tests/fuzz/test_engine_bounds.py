"""tests/fuzz/engine_bounds.py, which measures what bounds the ``engine``
target's rate, runs on a folder of inputs and prints its three rates
(in a process of its own: it replaces the engine's judgements)."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import targets

HERE = os.path.dirname(os.path.abspath(__file__))


def test_engine_bounds_prints_the_three_rates(tmp_path):
    seeds = targets.seeds("engine")[:30]
    for i, seed in enumerate(seeds):
        (tmp_path / ("seed%04d" % i)).write_bytes(seed)
    run = subprocess.run([sys.executable, os.path.join(HERE, "engine_bounds.py"), str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "%d inputs from" % len(seeds) in run.stdout
    rates = dict(re.findall(r"^(target|one check|one check, no fix judged)\s+(\d+) inputs/s$", run.stdout, re.M))
    assert set(rates) == {"target", "one check", "one check, no fix judged"}, run.stdout
    assert all(int(rate) > 0 for rate in rates.values())


def test_engine_bounds_says_how_to_use_it_without_a_folder():
    run = subprocess.run([sys.executable, os.path.join(HERE, "engine_bounds.py")],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "engine_bounds.py CORPUS" in run.stderr
