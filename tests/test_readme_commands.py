"""The README's first lines and .ci/run say the same thing.

The README opens with two commands: one installs irilint and lints a sample,
one installs everything and passes the tests on a fresh machine (``bash
.ci/run``).  CI runs .ci/run itself, so the test command it runs, with the
caches it points at empty folders, is the one the README promises; the
quicker daily command below it is that same pytest command without the
tests marked ``external``.
"""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
CI_RUN = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _sh_blocks(text):
    return re.findall(r"```sh\n(.*?)```", text, re.S)


def _commands(block):
    return [line.split("#", 1)[0].strip() for line in block.splitlines() if line.split("#", 1)[0].strip()]


def test_readme_opens_with_the_two_commands():
    assert README.startswith("# irilint\n\n```sh\n")
    first, second = _commands(_sh_blocks(README)[0])
    assert first == "python3 -m pip install . && irilint check tests/samples/sample.md"
    assert second == "bash .ci/run"
    # the sample exists and holds problems (the README says it exits 1)
    assert (ROOT / "tests" / "samples" / "sample.md").is_file()


def test_ci_runs_the_suite_with_empty_caches():
    body = CI_RUN[CI_RUN.index("empty caches"):]
    for var in ("XDG_CACHE_HOME", "PRE_COMMIT_HOME", "VIRTUALENV_OVERRIDE_APP_DATA"):
        assert re.search(r'export\b[^\n]*(\\\n[^\n]*)*\b%s="\$CACHES/' % var, body), var
    assert 'mkdir -p "$XDG_CACHE_HOME" "$PRE_COMMIT_HOME" "$VIRTUALENV_OVERRIDE_APP_DATA"' in body
    assert "CACHES=\"$(mktemp -d)\"" in body
    assert body.rstrip().splitlines()[-1] == "python -m pytest -q -p no:cacheprovider"


def test_daily_command_is_the_ci_command_without_external_tests():
    quick = [c for b in _sh_blocks(README) for c in _commands(b) if "-m pytest" in c]
    assert quick, "the README shows no pytest command"
    install, pytest_cmd = quick[0].split(" && ")
    assert install == "python3 -m pip install '.[test]'"
    argv = shlex.split(pytest_cmd)
    assert argv[:3] == ["python3", "-m", "pytest"]
    ci_argv = shlex.split(CI_RUN.rstrip().splitlines()[-1])
    assert argv[3:] == ci_argv[3:] + ["-m", "not external"]


def test_external_marker_selects_only_editor_and_browser_tests():
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only",
                          "-m", "external", "tests"], cwd=str(ROOT), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=300).stdout
    ids = [line for line in out.splitlines() if "::" in line]
    assert ids, out[-2000:]
    assert all(i.startswith("tests/editors/") or "chromium" in i for i in ids), ids
    assert any(i.startswith("tests/editors/") for i in ids)
    assert any("chromium" in i for i in ids)
