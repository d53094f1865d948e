"""Run CI pieces offline: the composite action's shell steps, README recipes.

* ``snapshot_repo`` commits this checkout's working tree (uncommitted changes
  included) to a temporary git repository on branch ``main``: the
  "repository" that recipes and the action install irilint from, through a
  ``file://`` URL instead of GitHub's.
* ``run_composite`` runs an ``action.yml`` as the GitHub runner would, on this
  machine: the ``run:`` steps in ``bash --noprofile --norc -eo pipefail``
  (the runner's ``shell: bash``), with ``${{ ... }}`` evaluated from the
  inputs, the ``github``/``runner`` contexts and earlier steps' outputs, and
  ``$GITHUB_OUTPUT`` / ``$GITHUB_PATH`` honoured between steps.  ``uses:``
  steps cannot run offline: they are recorded, with their ``with:`` values
  evaluated, for the test to check.  The expression evaluator knows only the
  forms a workflow here uses, and fails on anything else.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

import pytest

ROOT = Path(__file__).resolve().parent.parent


def git_env(base: Path) -> Dict[str, str]:
    """An environment with no user or system git configuration."""
    gitconfig = base / "gitconfig"
    gitconfig.write_text("[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"
                         "[advice]\n\tdetachedHead = false\n")
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("GIT_") or k.startswith("PRE_COMMIT") or k.startswith("GITHUB_"):
            del env[k]
    env.update({
        "GIT_CONFIG_GLOBAL": str(gitconfig),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "irilint test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
        "GIT_COMMITTER_NAME": "irilint test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
        "PRE_COMMIT_COLOR": "never",
        "VIRTUALENV_NO_PERIODIC_UPDATE": "1",
        "VIRTUALENV_OVERRIDE_APP_DATA": str(base / "virtualenv"),
        "PRE_COMMIT_HOME": str(base / "pre-commit"),
    })
    env.pop("VIRTUAL_ENV", None)
    return env


def git(args: List[str], cwd: Path, env: Dict[str, str]) -> str:
    proc = subprocess.run(["git"] + list(args), cwd=str(cwd), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    assert proc.returncode == 0, "git %s in %s: %s" % (" ".join(args), cwd, proc.stdout)
    return proc.stdout


def snapshot_repo(dest: Path, env: Dict[str, str]) -> str:
    """Commit this checkout's working tree to a new repository at ``dest``; its HEAD."""
    if shutil.which("git") is None:
        pytest.fail("git is needed for this test: install the Debian package 'git'")
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=str(ROOT),
                            check=True, stdout=subprocess.PIPE).stdout.decode("utf-8", "surrogateescape")
    dest.mkdir(parents=True)
    for rel in filter(None, listed.split("\0")):
        src = ROOT / rel
        if not os.path.lexists(src) or src.is_dir():
            continue  # deleted in the working tree, or a submodule
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), out)
        else:
            shutil.copy2(src, out)
    git(["init", "-q", "-b", "main"], dest, env)
    git(["add", "-A"], dest, env)
    git(["commit", "-q", "-m", "snapshot of the working tree"], dest, env)
    return git(["rev-parse", "HEAD"], dest, env).strip()


def python_bin(base: Path) -> Path:
    """A folder holding ``python``: the interpreter a runner's PATH would give."""
    bindir = base / "runner-bin"
    bindir.mkdir(parents=True, exist_ok=True)
    link = bindir / "python"
    if not link.exists():
        link.symlink_to(sys.executable)
    return bindir


# -- expressions -----------------------------------------------------------------

_EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)
_TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<op>&&|\|\||==|!=|!|\(|\))"
                    r"|(?P<call>always\(\)|success\(\)|failure\(\))|(?P<name>[A-Za-z_][\w.-]*))")


class ExpressionError(AssertionError):
    pass


@dataclass
class Context:
    inputs: Dict[str, str]
    github: Dict[str, str]
    runner: Dict[str, str]
    steps: Dict[str, Dict[str, str]] = field(default_factory=dict)
    failed: bool = False

    def lookup(self, name: str) -> str:
        parts = name.split(".")
        if parts[0] == "inputs" and len(parts) == 2:
            if parts[1] not in self.inputs:
                raise ExpressionError("unknown input %r" % parts[1])
            return self.inputs[parts[1]]
        if parts[0] in ("github", "runner") and len(parts) == 2:
            table = getattr(self, parts[0])
            if parts[1] not in table:
                raise ExpressionError("context %s has no %r in this harness" % (parts[0], parts[1]))
            return table[parts[1]]
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return self.steps.get(parts[1], {}).get(parts[3], "")
        raise ExpressionError("expression name %r is not known to the harness" % name)


def _tokens(text: str) -> List[tuple]:
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ExpressionError("cannot read expression %r at %r" % (text, text[pos:]))
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return out


def evaluate(text: str, ctx: Context):
    """Evaluate one expression: names, 'strings', ==, !=, !, &&, ||, ( ), always()/success()/failure()."""
    toks = _tokens(text)
    pos = 0

    def peek():
        return toks[pos] if pos < len(toks) else (None, None)

    def take():
        nonlocal pos
        pos += 1
        return toks[pos - 1]

    def primary():
        kind, val = take()
        if kind == "str":
            return val[1:-1].replace("''", "'")
        if kind == "name":
            if val in ("true", "false"):
                return val == "true"
            return ctx.lookup(val)
        if kind == "call":
            return {"always()": True, "success()": not ctx.failed, "failure()": ctx.failed}[val]
        if (kind, val) == ("op", "!"):
            return not truthy(primary())
        if (kind, val) == ("op", "("):
            v = disjunction()
            assert take() == ("op", ")"), text
            return v
        raise ExpressionError("unexpected %r in %r" % (val, text))

    def comparison():
        left = primary()
        while peek() in (("op", "=="), ("op", "!=")):
            op = take()[1]
            right = primary()
            # GitHub compares strings case-insensitively.
            eq = (left.lower() == right.lower()) if isinstance(left, str) and isinstance(right, str) \
                else left == right
            left = eq if op == "==" else not eq
        return left

    def conjunction():
        left = comparison()
        while peek() == ("op", "&&"):
            take()
            right = comparison()
            left = right if truthy(left) else left
        return left

    def disjunction():
        left = conjunction()
        while peek() == ("op", "||"):
            take()
            right = conjunction()
            left = left if truthy(left) else right
        return left

    value = disjunction()
    if pos != len(toks):
        raise ExpressionError("trailing tokens in %r" % text)
    return value


def truthy(value) -> bool:
    return bool(value) and value != "0"


def substitute(text: str, ctx: Context) -> str:
    def one(m):
        v = evaluate(m.group(1), ctx)
        return ("true" if v else "false") if isinstance(v, bool) else str(v)
    return _EXPR.sub(one, text)


def condition(step: Dict, ctx: Context) -> bool:
    cond = step.get("if")
    if cond is None:
        return not ctx.failed
    cond = str(cond).strip()
    m = re.fullmatch(r"\$\{\{(.*)\}\}", cond, re.S)
    expr = m.group(1) if m else cond
    # As GitHub: a condition without a status function has success() added.
    if not re.search(r"\b(always|success|failure|cancelled)\(\)", expr):
        return not ctx.failed and truthy(evaluate(expr, ctx))
    return truthy(evaluate(expr, ctx))


# -- composite actions ---------------------------------------------------------------


@dataclass
class StepRun:
    name: str
    kind: str              # "run", "uses" or "skipped"
    uses: Optional[str] = None
    with_: Optional[Dict[str, str]] = None
    returncode: Optional[int] = None
    output: str = ""


@dataclass
class ActionRun:
    steps: List[StepRun]
    outputs: Dict[str, str]
    failed: bool
    context: Context

    def step(self, name: str) -> StepRun:
        found = [s for s in self.steps if s.name == name]
        assert found, "no step %r among %s" % (name, [s.name for s in self.steps])
        return found[0]

    def log(self) -> str:
        return "\n".join("--- %s (%s, exit %s)\n%s" % (s.name, s.kind, s.returncode, s.output[-3000:])
                         for s in self.steps)


def run_composite(action: Dict, *, inputs: Dict[str, str], action_path: Path, workspace: Path,
                  temp: Path, env: Dict[str, str], path_prefix: List[str],
                  timeout: float = 900) -> ActionRun:
    """Run a parsed composite ``action.yml``; ``inputs`` as a workflow's ``with:`` gives them."""
    assert action["runs"]["using"] == "composite"
    declared = action.get("inputs", {})
    unknown = set(inputs) - set(declared)
    assert not unknown, "inputs the action does not declare: %s" % sorted(unknown)
    values = {k: str(inputs.get(k, spec.get("default", ""))) for k, spec in declared.items()}
    temp.mkdir(parents=True, exist_ok=True)
    ctx = Context(inputs=values,
                  github={"action_path": str(action_path), "workspace": str(workspace)},
                  runner={"temp": str(temp), "os": "Linux"})
    extra_path = list(path_prefix)
    runs: List[StepRun] = []
    for index, step in enumerate(action["runs"]["steps"]):
        name = step.get("name") or step.get("id") or "step %d" % index
        if not condition(step, ctx):
            runs.append(StepRun(name, "skipped"))
            continue
        if "uses" in step:
            with_ = {k: substitute(str(v), ctx) for k, v in (step.get("with") or {}).items()}
            runs.append(StepRun(name, "uses", uses=step["uses"], with_=with_))
            continue
        assert step.get("shell") == "bash", "step %r: only shell: bash is run here" % name
        output_file = temp / ("output-%d" % index)
        path_file = temp / ("path-%d" % index)
        output_file.write_text("")
        path_file.write_text("")
        step_env = dict(env)
        step_env.update({k: substitute(str(v), ctx) for k, v in (step.get("env") or {}).items()})
        step_env.update({
            "GITHUB_OUTPUT": str(output_file), "GITHUB_PATH": str(path_file),
            "GITHUB_ACTION_PATH": str(action_path), "GITHUB_WORKSPACE": str(workspace),
            "RUNNER_TEMP": str(temp), "CI": "true", "GITHUB_ACTIONS": "true",
            "PATH": os.pathsep.join(extra_path + [env.get("PATH", os.defpath)]),
        })
        script = temp / ("step-%d.sh" % index)
        script.write_text(substitute(step["run"], ctx), encoding="utf-8")
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                              cwd=str(workspace), env=step_env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout)
        out = proc.stdout.decode("utf-8", "replace")
        runs.append(StepRun(name, "run", returncode=proc.returncode, output=out))
        if step.get("id"):
            ctx.steps[step["id"]] = _read_outputs(output_file)
        for line in path_file.read_text().splitlines():
            if line.strip():
                extra_path.insert(0, line.strip())
        if proc.returncode != 0 and not step.get("continue-on-error"):
            ctx.failed = True
    outputs = {k: substitute(str(spec.get("value", "")), ctx)
               for k, spec in (action.get("outputs") or {}).items()}
    return ActionRun(runs, outputs, ctx.failed, ctx)


def _read_outputs(path: Path) -> Dict[str, str]:
    out: Dict[str, str] = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            key, delim = line.split("<<", 1)
            body = []
            i += 1
            while lines[i] != delim:
                body.append(lines[i])
                i += 1
            out[key] = "\n".join(body)
        elif "=" in line:
            key, value = line.split("=", 1)
            out[key] = value
        i += 1
    return out
