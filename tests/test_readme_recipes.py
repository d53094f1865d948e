"""The README's pre-commit and CI recipes, read from the README and run.

Each recipe is taken from its fenced block in README.md, so the README and
this test cannot drift.  The one change made before running it: the
repository's GitHub URL becomes a ``file://`` URL of a snapshot of this
checkout (tests/ci_harness.py), since the tests have no network; the test
checks that the README names exactly that URL.  Only the package installer
reaches the package index (tests/netblock).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ci_harness import ROOT, git, git_env, python_bin, run_composite, snapshot_repo

README = (ROOT / "README.md").read_text(encoding="utf-8")
GITHUB_URL = "https://github.com/irilint/irilint"

BAD = "# Links\n\nSee http://example.com/100% for the rest.\n"
CLEAN = "# Links\n\nSee https://example.com/100%25 for the rest.\n"


def _section(title: str, level: str = "##") -> str:
    m = re.search(r"^%s %s\n(.*?)(?=^#{2,%d} |\Z)" % (level, re.escape(title), len(level)),
                  README, re.S | re.M)
    assert m, "the README has no section %r" % title
    return m.group(1)


def _yaml_block(text: str) -> str:
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    assert len(blocks) == 1, "expected one yaml block, found %d" % len(blocks)
    return blocks[0]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    root = tmp_path_factory.mktemp("recipes")
    env = git_env(root)
    repo = root / "irilint"
    snapshot_repo(repo, env)
    return root, env, repo


def _project(path: Path, env, text: str) -> Path:
    path.mkdir(parents=True)
    (path / "docs").mkdir()
    (path / "docs" / "links.md").write_text(text, encoding="utf-8")
    git(["init", "-q"], path, env)
    git(["add", "-A"], path, env)
    git(["commit", "-q", "-m", "project"], path, env)
    return path


def test_no_recipe_names_what_does_not_exist():
    recipes = _section("pre-commit") + _section("CI recipes")
    assert "pip install irilint\n" not in recipes
    assert "v0.1.0" not in recipes
    assert "|| true" not in recipes


# -- pre-commit ----------------------------------------------------------------


def test_precommit_recipe(base, tmp_path):
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        pytest.fail("pre-commit is needed for this test: pip install pre-commit (the 'test' extra)")
    _, env, repo = base
    text = _yaml_block(_section("pre-commit"))
    config = yaml.safe_load(text)
    (entry,) = config["repos"]
    assert entry["repo"] == GITHUB_URL
    assert [h["id"] for h in entry["hooks"]] == ["irilint"]
    # The commented-out hook is one the repository declares.
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert "irilint-fix" in re.findall(r"- id: ([\w-]+)", text) and "irilint-fix" in [h["id"] for h in hooks]

    project = _project(tmp_path / "project", env, BAD)
    (project / ".pre-commit-config.yaml").write_text(text.replace(GITHUB_URL, repo.as_uri()),
                                                     encoding="utf-8")
    def run():
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"],
                              cwd=str(project), env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=900)
    r = run()
    assert r.returncode == 1, r.stdout[-4000:]
    assert "IRI401" in r.stdout and "docs/links.md:3:" in r.stdout, r.stdout[-4000:]
    (project / "docs" / "links.md").write_text(CLEAN, encoding="utf-8")
    r = run()
    assert r.returncode == 0, r.stdout[-4000:]


# -- GitHub Actions ------------------------------------------------------------------


def test_github_workflow_recipe(base, tmp_path):
    root, env, repo = base
    workflow = yaml.safe_load(_yaml_block(_section("GitHub Action", "###")))
    assert workflow["permissions"]["security-events"] == "write"
    (job,) = workflow["jobs"].values()
    steps = job["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@")
    (step,) = [s for s in steps if s.get("uses", "").startswith("irilint/irilint@")]
    # As the runner does: the action named in `uses:` is this repository at that ref.
    ref = step["uses"].split("@", 1)[1]
    action_path = tmp_path / "action"
    git(["clone", "-q", "--branch", ref, repo.as_uri(), str(action_path)], tmp_path, env)
    action = yaml.safe_load((action_path / "action.yml").read_text(encoding="utf-8"))
    # YAML `true` reaches an action as the string "true".
    inputs = {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in step["with"].items()}

    project = _project(tmp_path / "project", env, BAD)
    run = run_composite(action, inputs=inputs, action_path=action_path, workspace=project,
                        temp=tmp_path / "runner-temp", env=env, path_prefix=[str(python_bin(tmp_path))])
    log = run.log()
    assert run.outputs["exit-code"] == "1", log
    sarif = json.loads((project / "irilint.sarif").read_text(encoding="utf-8"))
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["IRI401"]
    assert run.step("Upload SARIF to code scanning").with_["sarif_file"] == "irilint.sarif"
    assert (project / "irilint-report.html").is_file(), log
    assert run.step("Attach the review report").with_["path"] == "irilint-report.html"
    assert run.failed and run.step("Fail on findings").returncode == 1, log


# -- GitLab CI -----------------------------------------------------------------------


def test_gitlab_recipe(base, tmp_path):
    root, env, repo = base
    job = yaml.safe_load(_yaml_block(_section("GitLab CI", "###")))["irilint"]
    script = job["script"]
    assert script[0] == 'pip install "git+%s@main"' % GITHUB_URL
    assert job["artifacts"]["when"] == "always"
    # The image's Python, where `pip install` installs for every later command.
    image = tmp_path / "image-python"
    subprocess.run([sys.executable, "-m", "venv", str(image)], check=True)
    job_env = dict(env, PATH=os.pathsep.join([str(image / "bin"), env.get("PATH", os.defpath)]))

    def run_script(project: Path, lines):
        # GitLab runs the script's lines in one shell and stops at the first failure.
        body = "set -eo pipefail\n" + "\n".join(lines) + "\n"
        return subprocess.run(["bash", "--noprofile", "--norc", "-c", body], cwd=str(project),
                              env=job_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=900)

    bad = _project(tmp_path / "bad", env, BAD)
    lines = [script[0].replace(GITHUB_URL, repo.as_uri())] + script[1:]
    r = run_script(bad, lines)
    assert r.returncode == 1, r.stdout[-4000:]   # the job fails on the finding...
    for artifact in job["artifacts"]["paths"]:   # ... and keeps both artifacts
        assert (bad / artifact).is_file(), artifact
    findings = json.loads((bad / "irilint.json").read_text(encoding="utf-8"))
    assert "IRI401" in json.dumps(findings)
    assert "IRI401" in (bad / "irilint.md").read_text(encoding="utf-8")

    clean = _project(tmp_path / "clean", env, CLEAN)
    r = run_script(clean, script[1:])  # irilint is installed in the image now
    assert r.returncode == 0, r.stdout[-4000:]
