"""bench/speed.py and its yardstick server: the bare pygls server answers
every change with an empty publishDiagnostics of that version (what the
server rows time), and speed.py prints a row per figure asked for, with
the ratio to its yardstick, and says clearly when a corpus is missing."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench"
sys.path.insert(0, str(BENCH))

import lsp_bench  # noqa: E402


def test_the_bare_server_publishes_no_diagnostics_for_each_version(tmp_path):
    text = lsp_bench.markdown_doc(50)
    times, _cpu = lsp_bench.bench_changes(str(tmp_path), text, changes=3, warmup=1,
                                          argv=lsp_bench.bare_server_argv())
    assert len(times) == 3 and all(t > 0 for t in times)
    c = lsp_bench._start(str(tmp_path), argv=lsp_bench.bare_server_argv())
    try:
        uri = (tmp_path / "doc.md").as_uri()
        c.open(uri, "see http://example.org/\n")
        _t, msg = c.wait_diagnostics(uri, 1, timeout=30)
        assert msg["params"]["diagnostics"] == [] and msg["params"]["version"] == 1
        c.change(uri, [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 3}},
                        "text": "x"}], 2)
        _t, msg = c.wait_diagnostics(uri, 2, timeout=30)
        assert msg["params"]["diagnostics"] == [] and msg["params"]["version"] == 2
    finally:
        c.close()


def test_speed_prints_the_startup_row_against_python(tmp_path):
    p = subprocess.run([sys.executable, str(BENCH / "speed.py"), "--only", "startup", "--runs", "1"],
                       capture_output=True, text=True, timeout=300, env=dict(os.environ, BENCH_MAX_WAIT="0"),
                       cwd=str(tmp_path))
    assert p.returncode == 0, p.stderr
    row = [line for line in p.stdout.splitlines() if line.startswith("| start-up")]
    assert len(row) == 1 and "python -c pass" in row[0] and "<= 120 ms" in row[0], p.stdout


def test_speed_names_the_missing_corpus(tmp_path):
    missing = tmp_path / "no-corpus"
    p = subprocess.run([sys.executable, str(BENCH / "speed.py"), "--only", "cli", "--corpus", str(missing)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert str(missing) in p.stderr and "--corpus" in p.stderr


def test_speed_prints_the_findings_rows_against_a_clean_file(tmp_path):
    p = subprocess.run([sys.executable, str(BENCH / "speed.py"), "--only", "findings", "--findings-mb", "0.02"],
                       capture_output=True, text=True, timeout=300, env=dict(os.environ, BENCH_MAX_WAIT="0"),
                       cwd=str(tmp_path))
    assert p.returncode == 0, p.stderr
    rows = [line for line in p.stdout.splitlines() if line.startswith("| 0.02 MB dense with findings")]
    assert [r.split("--format ")[1].split(" ")[0] for r in rows] == ["json", "sarif", "text"], p.stdout
    for row in rows:
        assert "µs/finding" in row and "MB peak" in row and "no findings: " in row and "<= 30 µs/finding" in row
