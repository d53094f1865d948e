"""The shared end of the generators in tools/: write, or check that the
committed output is up to date."""
import importlib.util
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(ROOT, "tools")


def _load():
    spec = importlib.util.spec_from_file_location("generated_output", os.path.join(TOOLS, "generated_output.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_check_passes_only_on_identical_text(tmp_path, capsys):
    gen = _load()
    out = tmp_path / "data.py"
    out.write_text("A = 1\n", encoding="utf-8")
    assert gen.write_or_check("A = 1\n", str(out), True, "python tools/x.py") == 0
    assert gen.write_or_check("A = 2\n", str(out), True, "python tools/x.py") == 1
    captured = capsys.readouterr()
    assert "-A = 1" in captured.out and "+A = 2" in captured.out
    assert "out of date: run python tools/x.py" in captured.err
    assert out.read_text(encoding="utf-8") == "A = 1\n", "--check must not write"


def test_check_of_a_missing_file_fails(tmp_path, capsys):
    gen = _load()
    assert gen.write_or_check("A = 1\n", str(tmp_path / "absent.py"), True, "python tools/x.py") == 1
    assert not (tmp_path / "absent.py").exists()


def test_write_creates_folders_and_writes_lf(tmp_path):
    gen = _load()
    out = tmp_path / "sub" / "data.py"
    assert gen.write_or_check("A = 1\nB = 2\n", str(out), False, "python tools/x.py") == 0
    assert out.read_bytes() == b"A = 1\nB = 2\n"
    before = out.stat().st_mtime_ns
    assert gen.write_or_check("A = 1\nB = 2\n", str(out), False, "python tools/x.py") == 0
    assert out.stat().st_mtime_ns == before, "an up-to-date file is left alone"


def test_dash_writes_to_stdout(capsys):
    gen = _load()
    assert gen.write_or_check("A = 1\n", "-", False, "python tools/x.py") == 0
    assert capsys.readouterr().out == "A = 1\n"


@pytest.mark.parametrize("tool, committed", [
    ("gen_lookalike_table.py", "server/lookalike_table.py"),
    ("gen_rules_doc.py", "docs/rules.md"),
    ("gen_rule_catalogue.py", "rules/catalogue.py"),
])
def test_each_generator_checks_through_the_shared_end(tool, committed, tmp_path):
    # A stale copy of the committed output fails --check with the command that mends it.
    stale = tmp_path / os.path.basename(committed)
    with open(os.path.join(ROOT, committed), encoding="utf-8") as f:
        stale.write_text(f.read() + "# stale\n", encoding="utf-8")
    r = subprocess.run([sys.executable, os.path.join(TOOLS, tool), "--check", "--output", str(stale)],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 1, r.stderr
    assert "python tools/%s" % tool in r.stderr
    r = subprocess.run([sys.executable, os.path.join(TOOLS, tool), "--output", str(stale)],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    with open(os.path.join(ROOT, committed), encoding="utf-8") as f:
        assert stale.read_text(encoding="utf-8") == f.read()
