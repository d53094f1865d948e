"""bench/free_scanning.py, the ``free-scan`` row of bench/speed.py: irilint's
CLI with each scanner replaying what it found in a first run.  The replayed
run must be the same run without its scanning: same output, every scan
replayed, and no cache left where a real run would read it."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "tests" / "samples" / "sample.md"
SCRIPT = REPO / "bench" / "free_scanning.py"


def _tree(root: Path) -> None:
    shutil.copyfile(SAMPLE, root / "sample.md")
    (root / "page.html").write_text('<a href="http://example.com/\u05e2\u05d1\u05e8%zz">x</a>\n', encoding="utf-8")
    (root / "data.ttl").write_text("<http://example.org/a> <http://example.org/p> <http://\u0430pple.com/> .\n",
                                   encoding="utf-8")
    (root / "notes.txt").write_text("no reference here\n", encoding="utf-8")


def test_free_scanning_replays_every_scan_and_prints_the_whole_runs_output(tmp_path):
    _tree(tmp_path)
    env = dict(os.environ)
    env.pop("IRILINT_CACHE_ROOT", None)
    env.pop("IRILINT_NO_CACHE", None)
    run = subprocess.run([sys.executable, str(SCRIPT), "check", "--jobs", "1", "."], cwd=str(tmp_path), env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    figures = json.loads(run.stderr.strip().splitlines()[-1])
    assert figures["replayed"] == 4  # one scan a file, the one without references too
    assert figures["whole_s"] > 0 and figures["free_scan_s"] > 0
    assert not (tmp_path / ".irilint_cache").exists()


def test_a_scan_the_first_run_did_not_record_fails_the_measurement(tmp_path, monkeypatch, capsys):
    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(SCRIPT.parent))
    import free_scanning

    real_run = free_scanning._run
    calls = []

    def run_then_edit(argv):
        out = real_run(argv)
        calls.append(argv)
        if len(calls) == 1:  # the text changes after the recording run
            (tmp_path / "page.html").write_text('<a href="http://example.net/">y</a>\n', encoding="utf-8")
        return out

    monkeypatch.setattr(free_scanning, "_run", run_then_edit)
    monkeypatch.setenv("IRILINT_NO_CACHE", "1")
    assert free_scanning.main(["check", "--jobs", "1", "."]) == 3
    assert "1 scans were not recorded (html)" in capsys.readouterr().err
