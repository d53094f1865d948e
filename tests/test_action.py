"""The composite GitHub Action (action.yml), its shell steps run offline.

action.yml is parsed and run by tests/ci_harness.py as the runner would run
it, on a temporary repository holding a finding: the install step
pip-installs a snapshot of this checkout (the action's own folder, or a git
ref of it through a file:// URL), the check step writes SARIF, the upload
steps (``uses:``) are checked for what they would be given, and the last
step fails the job on findings.  Only the package installer reaches the
package index (tests/netblock).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from ci_harness import ROOT, git, git_env, python_bin, run_composite, snapshot_repo

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))

BAD = "# Links\n\nSee http://example.com/100% for the rest.\n"
BAD_LINE = 3  # 1-based, as SARIF counts
BAD_COLUMN = BAD.splitlines()[2].index("%") + 1


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    root = tmp_path_factory.mktemp("action")
    env = git_env(root)
    action_path = root / "irilint-action"
    snapshot_repo(action_path, env)
    return root, env, action_path


def _project(root: Path, env, files) -> Path:
    project = root / "project"
    project.mkdir()
    for rel, text in files.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text, encoding="utf-8")
    git(["init", "-q"], project, env)
    git(["add", "-A"], project, env)
    git(["commit", "-q", "-m", "project"], project, env)
    return project


def _run(root: Path, env, action_path: Path, project: Path, inputs, action=ACTION, path_prefix=()):
    return run_composite(action, inputs=inputs, action_path=action_path, workspace=project,
                         temp=root / "runner-temp", env=env,
                         path_prefix=list(path_prefix) + [str(python_bin(root))])


@pytest.fixture(scope="module")
def default_run(base, tmp_path_factory):
    """The action with its defaults, on a project with one finding."""
    _, env, action_path = base
    root = tmp_path_factory.mktemp("default")
    project = _project(root, env, {"docs/links.md": BAD, "README.md": "# Clean\n\nhttps://example.com/\n"})
    return root, project, _run(root, env, action_path, project, {}), action_path


def test_shell_steps_take_inputs_only_from_the_environment():
    steps = ACTION["runs"]["steps"]
    for step in steps:
        if "run" in step:
            # An input spliced into a script would be shell code the workflow's author did not write.
            assert "${{" not in step["run"], step.get("name")
            assert step["shell"] == "bash", step.get("name")
    uses = [s["uses"] for s in steps if "uses" in s]
    assert any(u.startswith("github/codeql-action/upload-sarif@") for u in uses), uses
    assert any(u.startswith("actions/upload-artifact@") for u in uses), uses
    install = next(s for s in steps if s.get("name") == "Install irilint")
    assert install["env"]["IRILINT_ACTION_PATH"] == "${{ github.action_path }}"
    assert '"$IRILINT_VENV/bin/python" -m pip install --quiet "$IRILINT_ACTION_PATH"' in install["run"]
    assert set(ACTION["inputs"]) >= {"paths", "ref", "repository", "fail-level", "report"}


def test_default_run_writes_sarif_uploads_it_and_fails_on_the_finding(default_run):
    root, project, run, action_path = default_run
    log = run.log()
    install = run.step("Install irilint")
    assert install.returncode == 0, log
    assert "irilint" in install.output, log
    origin = _installed_from(root)
    assert origin["url"] == action_path.as_uri() and "dir_info" in origin, origin
    check = run.step("Check")
    assert check.returncode == 0, log
    assert run.outputs["exit-code"] == "1", log
    assert run.outputs["sarif-file"] == "irilint.sarif", log

    sarif = json.loads((project / "irilint.sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"
    results = sarif["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["IRI401"], results
    loc = results[0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "docs/links.md"
    assert (loc["region"]["startLine"], loc["region"]["startColumn"]) == (BAD_LINE, BAD_COLUMN)

    upload = run.step("Upload SARIF to code scanning")
    assert upload.kind == "uses", log
    assert upload.with_ == {"sarif_file": "irilint.sarif", "category": "irilint"}
    assert run.step("Build the review report").kind == "skipped"
    assert run.step("Attach the review report").kind == "skipped"
    fail = run.step("Fail on findings")
    assert fail.kind == "run" and fail.returncode == 1, log
    assert run.failed


def test_ref_install_with_report_and_fail_level_never(base, tmp_path_factory):
    _, env, action_path = base
    root = tmp_path_factory.mktemp("ref")
    project = _project(root, env, {"docs/links.md": BAD, "notes/other.md": "http://example.com/50%\n"})
    run = _run(root, env, action_path, project, {
        "repository": action_path.as_uri(), "ref": "main", "report": "true",
        "fail-level": "never", "paths": "docs", "sarif-file": "out/scan.sarif",
        "report-file": "out/report/irilint.html",
    })
    log = run.log()
    assert not run.failed, log
    assert run.step("Install irilint").returncode == 0, log
    # Installed from the git ref, not from the action's folder.
    origin = _installed_from(root)
    assert origin["url"] == action_path.as_uri(), origin
    assert origin["vcs_info"]["vcs"] == "git" and origin["vcs_info"]["requested_revision"] == "main", origin
    assert run.outputs["exit-code"] == "1", log
    sarif = json.loads((project / "out" / "scan.sarif").read_text(encoding="utf-8"))
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif["runs"][0]["results"]}
    assert uris == {"docs/links.md"}, uris  # only the paths given
    report = project / "out" / "report" / "irilint.html"
    assert report.is_file(), log
    assert "<html" in report.read_text(encoding="utf-8").lower()
    attach = run.step("Attach the review report")
    assert attach.kind == "uses" and attach.uses.startswith("actions/upload-artifact@"), log
    assert attach.with_ == {"name": "irilint-report", "path": "out/report/irilint.html"}
    assert run.step("Fail on findings").kind == "skipped", log


def _installed_from(root: Path):
    """pip's record (PEP 610 direct_url.json) of where the action's irilint came from."""
    found = list((root / "runner-temp" / "irilint-venv").glob("lib/python*/site-packages/irilint-*.dist-info/direct_url.json"))
    assert len(found) == 1, found
    return json.loads(found[0].read_text(encoding="utf-8"))


def _without_install(default_run):
    root = default_run[0]
    steps = [s for s in ACTION["runs"]["steps"] if s.get("name") != "Install irilint"]
    venv_bin = str(root / "runner-temp" / "irilint-venv" / "bin")
    return dict(ACTION, runs=dict(ACTION["runs"], steps=steps)), venv_bin


def test_clean_tree_passes(base, default_run, tmp_path_factory):
    _, env, action_path = base
    action, venv_bin = _without_install(default_run)
    root = tmp_path_factory.mktemp("clean")
    project = _project(root, env, {"README.md": "# Clean\n\nhttps://example.com/a%20b\n"})
    run = _run(root, env, action_path, project, {}, action=action, path_prefix=[venv_bin])
    assert not run.failed, run.log()
    assert run.outputs["exit-code"] == "0"
    sarif = json.loads((project / "irilint.sarif").read_text(encoding="utf-8"))
    assert sarif["runs"][0]["results"] == []
    assert run.step("Fail on findings").kind == "skipped"


@pytest.mark.parametrize("inputs, message", [
    ({"fail-level": "severe"}, "fail-level must be error, warning, info, hint or never, not 'severe'"),
    ({"paths": "no-such-folder"}, "no-such-folder"),
])
def test_bad_input_fails_with_a_clear_message(base, default_run, tmp_path_factory, inputs, message):
    _, env, action_path = base
    action, venv_bin = _without_install(default_run)
    root = tmp_path_factory.mktemp("bad")
    project = _project(root, env, {"README.md": "x\n"})
    run = _run(root, env, action_path, project, inputs, action=action, path_prefix=[venv_bin])
    check = run.step("Check")
    assert check.returncode == 2, run.log()
    assert message in check.output, run.log()
    assert run.failed
