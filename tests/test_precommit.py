"""The pre-commit hooks (.pre-commit-hooks.yaml), run by pre-commit itself.

A snapshot of this checkout (its working tree, uncommitted changes
included) is committed to a temporary git repository, which projects in
other temporary repositories use as their hook repository.  pre-commit
builds one environment for it (pip-installing irilint and its dependencies
from the package index: this takes a minute), shared by every test here
through PRE_COMMIT_HOME.

pre-commit is a test dependency (the ``test`` extra): the test fails,
never skips, without it.

The suite's network block (tests/netblock) stays on here: only the package
installer (a process whose main module is pip) may reach the package index;
pre-commit itself and the irilint hook it runs are blocked like the rest.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _git(args, cwd, env, check=True):
    return subprocess.run(["git"] + list(args), cwd=str(cwd), env=env, check=check,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        pytest.fail("pre-commit is needed for this test: pip install pre-commit (the 'test' extra)")
    if shutil.which("git") is None:
        pytest.fail("git is needed for this test: install the Debian package 'git'")
    base = tmp_path_factory.mktemp("precommit")
    gitconfig = base / "gitconfig"
    gitconfig.write_text("[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n")
    e = dict(os.environ)
    for k in list(e):
        if k.startswith("GIT_") or k.startswith("PRE_COMMIT"):
            del e[k]
    e.update({
        "PRE_COMMIT_HOME": str(base / "cache"),
        # no user or system git configuration (hooksPath, signing, templates)
        "GIT_CONFIG_GLOBAL": str(gitconfig),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "irilint test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
        "GIT_COMMITTER_NAME": "irilint test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
        "PRE_COMMIT_COLOR": "never",
        # pre-commit builds the hook environment with virtualenv, whose
        # "periodic update" of its embedded wheels would ask the package
        # index from a process that is not pip (the network block stops
        # it, and the run fails on a machine whose virtualenv data is
        # empty); its data stays in the test's own folder.
        "VIRTUALENV_NO_PERIODIC_UPDATE": "1",
        "VIRTUALENV_OVERRIDE_APP_DATA": str(base / "virtualenv"),
    })
    e.pop("VIRTUAL_ENV", None)
    return e


@pytest.fixture(scope="module")
def hook_repo(env, tmp_path_factory):
    """A git repository holding this checkout's working tree; (path, rev)."""
    repo = tmp_path_factory.mktemp("hookrepo")
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=str(ROOT),
                            check=True, stdout=subprocess.PIPE).stdout.decode("utf-8", "surrogateescape")
    for rel in filter(None, listed.split("\0")):
        src = ROOT / rel
        if not os.path.lexists(src) or src.is_dir():
            continue  # deleted in the working tree, or a submodule
        dst = repo / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), dst)
        else:
            shutil.copy2(src, dst)
    _git(["init", "-q"], repo, env)
    _git(["add", "-A"], repo, env)
    _git(["commit", "-q", "-m", "snapshot of the working tree"], repo, env)
    rev = _git(["rev-parse", "HEAD"], repo, env).stdout.strip()
    return repo, rev


def _pre_commit(args, cwd, env, timeout=900):
    return subprocess.run([sys.executable, "-m", "pre_commit"] + list(args), cwd=str(cwd), env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)


def _project(path: Path, hook_repo, hook_id: str, env) -> Path:
    repo, rev = hook_repo
    path.mkdir()
    _git(["init", "-q"], path, env)
    (path / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        "  - repo: %s\n"
        "    rev: %s\n"
        "    hooks:\n"
        "      - id: %s\n" % (repo, rev, hook_id), encoding="utf-8")
    r = _pre_commit(["install"], path, env)
    assert r.returncode == 0, r.stdout
    _git(["add", ".pre-commit-config.yaml"], path, env)
    _git(["commit", "-q", "--no-verify", "-m", "pre-commit config"], path, env)
    return path


@pytest.fixture(scope="module")
def installed(hook_repo, env, tmp_path_factory):
    """Build the hook environment once, for every test of this module."""
    project = _project(tmp_path_factory.mktemp("warmup") / "p", hook_repo, "irilint", env)
    r = _pre_commit(["install-hooks"], project, env)
    assert r.returncode == 0, r.stdout[-4000:]
    return hook_repo


def _commit(project: Path, env, message: str, *files: str):
    _git(["add", "--"] + list(files), project, env)
    return _git(["commit", "-m", message], project, env, check=False)


def test_hooks_file_declares_both_hooks():
    text = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "- id: irilint\n" in text and "- id: irilint-fix\n" in text
    assert "entry: irilint check\n" in text and "entry: irilint check --fix\n" in text


def test_check_hook_rejects_then_accepts(installed, env, tmp_path):
    project = _project(tmp_path / "check", installed, "irilint", env)
    doc = project / "doc.md"
    doc.write_text("See http://example.com/%E2%80%AE for details.\n", encoding="utf-8")
    r = _commit(project, env, "add a spoofed link", "doc.md")
    assert r.returncode != 0, r.stdout
    assert "IRI102" in r.stdout and "bidi-control-encoded" in r.stdout, r.stdout
    assert _git(["rev-list", "--count", "HEAD"], project, env).stdout.strip() == "1"

    doc.write_text("See http://example.com/ for details.\n", encoding="utf-8")
    r = _commit(project, env, "add a clean link", "doc.md")
    assert r.returncode == 0, r.stdout
    assert "irilint" in r.stdout and "Passed" in r.stdout
    assert _git(["rev-list", "--count", "HEAD"], project, env).stdout.strip() == "2"


def test_fix_hook_fixes_and_fails_the_first_commit(installed, env, tmp_path):
    project = _project(tmp_path / "fix", installed, "irilint-fix", env)
    doc = project / "doc.md"
    doc.write_text("Download http://e.org/100% now.\n", encoding="utf-8")
    r = _commit(project, env, "add a broken escape", "doc.md")
    assert r.returncode != 0, r.stdout
    assert "files were modified by this hook" in r.stdout, r.stdout
    assert doc.read_text(encoding="utf-8") == "Download http://e.org/100%25 now.\n"
    assert _git(["rev-list", "--count", "HEAD"], project, env).stdout.strip() == "1"

    r = _commit(project, env, "add the fixed escape", "doc.md")
    assert r.returncode == 0, r.stdout
    assert _git(["show", "HEAD:doc.md"], project, env).stdout == "Download http://e.org/100%25 now.\n"
