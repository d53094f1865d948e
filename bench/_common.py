"""Shared helpers of the benchmark scripts (timing, load, results file).

Every figure is recorded as a :class:`Figure`: what was measured, the value,
the target, whether it holds, the load average when it was measured and the
exact command that reproduces it.  ``record()`` prints it and stores it in
``bench/results.json``; ``render_results_md()`` turns that file into the
table of ``bench/results.md`` (between the GENERATED markers; the rest of the
file, the notes written by hand, is kept).
"""
from __future__ import annotations

import json
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
CORPUS = BENCH / "corpus"
RESULTS_JSON = BENCH / "results.json"
RESULTS_MD = BENCH / "results.md"
BEGIN = "<!-- BEGIN GENERATED: python bench/run_bench.py rewrites this part -->"
END = "<!-- END GENERATED -->"

#: The URL regex rg is given (and the "obvious" one, for reference).
RG_URL_REGEX = r'[A-Za-z][A-Za-z0-9+.-]*://[^\s<>"]+'

#: Default timeout of one benchmarked process (seconds).
TIMEOUT = 900


class BenchError(RuntimeError):
    """A benchmark could not run: the message says what to do."""


def loadavg() -> str:
    try:
        a, b, c = os.getloadavg()
        return "%.2f %.2f %.2f" % (a, b, c)
    except OSError:
        return "?"


def load1() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def wait_for_quiet(max_load: Optional[float] = None, max_wait: Optional[float] = None,
                   verbose: bool = True) -> str:
    """Wait (at most ``max_wait`` s) for the 1-minute load to drop below
    ``max_load``: other agents share this machine.  Returns the load.

    Defaults: ``BENCH_MAX_LOAD`` (1.5) and ``BENCH_MAX_WAIT`` (30 s) from the
    environment; ``BENCH_MAX_WAIT=0`` never waits."""
    if max_load is None:
        max_load = float(os.environ.get("BENCH_MAX_LOAD", "1.5"))
    if max_wait is None:
        max_wait = float(os.environ.get("BENCH_MAX_WAIT", "30"))
    t0 = time.monotonic()
    announced = False
    while load1() > max_load and time.monotonic() - t0 < max_wait:
        if verbose and not announced:
            print("  (load %s: waiting up to %.0f s for it to drop below %.1f)"
                  % (loadavg(), max_wait, max_load), file=sys.stderr)
            announced = True
        time.sleep(5)
    return loadavg()


def irilint_argv() -> List[str]:
    """The irilint executable of this interpreter's environment."""
    exe = Path(sys.executable).parent / "irilint"
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-m", "irilint"]


def shell(cmd: Sequence[str], env: Optional[Dict[str, str]] = None) -> str:
    """A copy-pastable form of ``cmd`` (relative to the repository)."""
    parts = []
    for a in cmd:
        a = str(a)
        if a.startswith(str(REPO) + os.sep):
            a = os.path.relpath(a, REPO)
        elif a == sys.executable:
            a = "python"
        elif a.endswith(os.sep + "irilint") and Path(a).parent == Path(sys.executable).parent:
            a = "irilint"
        elif os.path.isabs(a) and shutil.which(os.path.basename(a)) == a:
            a = os.path.basename(a)  # rg, ...
        parts.append(shlex.quote(a))
    prefix = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in (env or {}).items())
    return (prefix + " " if prefix else "") + " ".join(parts)


@dataclass
class Run:
    wall: float
    returncode: int
    stdout: bytes = b""
    stderr: bytes = b""
    #: user + system CPU seconds of the process and the children it waited for
    cpu: float = 0.0


#: Where the benchmarked processes keep their bytecode (.pyc).  This
#: environment sets PYTHONDONTWRITEBYTECODE=1, so an editable install would
#: compile every module from source at every start (~+150 ms); a user's
#: irilint, installed from a wheel, has its .pyc.  The benchmarks measure the
#: latter: bytecode written once, outside the work tree.
PYCACHE = os.path.join(tempfile.gettempdir(), "irilint-bench-pycache")


def bench_env(extra: Optional[Dict[str, str]] = None, bytecode: bool = True) -> Dict[str, str]:
    env = dict(os.environ)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = PYCACHE
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    if extra:
        env.update(extra)
    return env


def run_timed(cmd: Sequence[str], *, env_extra: Optional[Dict[str, str]] = None,
              timeout: float = TIMEOUT, ok_codes: Sequence[int] = (0, 1), keep_stdout: bool = False,
              cwd: Optional[Path] = None, stdin: Optional[bytes] = None, bytecode: bool = True) -> Run:
    """Run ``cmd`` once and return its wall time (whole process)."""
    env = bench_env(env_extra, bytecode)
    out = subprocess.PIPE if keep_stdout else subprocess.DEVNULL
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        p = subprocess.run(list(cmd), stdout=out, stderr=subprocess.PIPE, env=env, timeout=timeout,
                           cwd=str(cwd or REPO), input=stdin)
    except subprocess.TimeoutExpired:
        raise BenchError("timed out after %.0f s: %s" % (timeout, shell(cmd, env_extra)))
    except FileNotFoundError as exc:
        raise BenchError("cannot run %s: %s" % (shell(cmd), exc))
    wall = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    if p.returncode not in ok_codes:
        raise BenchError("exit status %d (expected one of %s) from %s\n%s" % (
            p.returncode, list(ok_codes), shell(cmd, env_extra),
            p.stderr.decode("utf-8", "replace")[-2000:]))
    return Run(wall, p.returncode, p.stdout or b"", p.stderr or b"", cpu)


def median(xs: Sequence[float]) -> float:
    return statistics.median(xs)


def p95(xs: Sequence[float]) -> float:
    s = sorted(xs)
    if not s:
        return float("nan")
    k = max(0, min(len(s) - 1, int(round(0.95 * (len(s) - 1)))))
    return s[k]


def tree_bytes(root: Path) -> (int, int):
    """Bytes and files under ``root`` (regular files, no symlinks)."""
    total = files = 0
    for dirpath, _dirs, names in os.walk(root):
        for n in names:
            p = os.path.join(dirpath, n)
            if os.path.islink(p):
                continue
            try:
                total += os.path.getsize(p)
                files += 1
            except OSError:
                pass
    return total, files


def require_corpus(path: Path = CORPUS) -> None:
    if not (path / "MANIFEST.json").exists():
        raise BenchError("no corpus at %s: build it with `python bench/build_corpus.py`" % path)


def git_state() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "server", "rules"],
                               cwd=REPO, capture_output=True, text=True, timeout=10).stdout.strip()
        return head + (" + uncommitted changes in server/ or rules/" if dirty else "")
    except Exception:
        return "?"


@dataclass
class Figure:
    key: str           # stable id, e.g. "cli1.throughput"
    name: str          # what is measured
    value: str         # the figure, formatted
    target: str        # the target, as text ("" when just for reference)
    met: Optional[bool]  # None: no target
    load: str          # load average when measured
    command: str       # how to reproduce
    detail: str = ""   # e.g. the runs
    when: str = field(default_factory=lambda: time.strftime("%Y-%m-%d %H:%M"))
    commit: str = ""


def record(fig: Figure, store: bool = True) -> Figure:
    if not fig.commit:
        fig.commit = git_state()
    mark = {True: "MET", False: "NOT MET", None: "-"}[fig.met]
    print("%-44s %-22s target %-14s %-8s load %s" % (fig.name, fig.value, fig.target or "-", mark, fig.load))
    print("    $ %s" % fig.command)
    if fig.detail:
        print("    %s" % fig.detail)
    sys.stdout.flush()
    if store:
        data = load_results()
        data["figures"][fig.key] = asdict(fig)
        save_results(data)
    return fig


def add_section(title: str, text: str) -> None:
    """Store a free-form section (profile, importtime...) for results.md."""
    data = load_results()
    data["sections"][title] = {"text": text, "when": time.strftime("%Y-%m-%d %H:%M"), "load": loadavg()}
    save_results(data)


def load_results() -> Dict[str, Any]:
    if RESULTS_JSON.exists():
        try:
            data = json.loads(RESULTS_JSON.read_text(encoding="utf-8"))
            data.setdefault("figures", {})
            data.setdefault("sections", {})
            return data
        except ValueError:
            pass
    return {"figures": {}, "sections": {}}


def save_results(data: Dict[str, Any]) -> None:
    tmp = RESULTS_JSON.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, RESULTS_JSON)


#: Order of the figures in the table.
ORDER = ["corpus.size", "cli1.throughput", "cli1.rg-ratio", "cli2.speedup", "cli2.identical",
         "iri.ascii", "iri.nonascii-all", "iri.ascii-all", "iri.nonascii",
         "patho.percent", "patho.http-run", "patho.long-iri", "patho.combining", "patho.single-line",
         "patho.md-parens", "patho.letters", "patho.data-uri", "patho.obvious-regex",
         "startup.check", "startup.check-nobytecode", "cache.warm",
         "lsp.change-median", "lsp.change-p95", "lsp.big", "lsp.init", "lsp.memory"]


def _order(key: str) -> tuple:
    return (ORDER.index(key) if key in ORDER else len(ORDER), key)


def render_results_md() -> None:
    data = load_results()
    figs = sorted(data["figures"].values(), key=lambda f: _order(f["key"]))
    lines = [BEGIN, "", "| figure | value | target | met? | load average (1/5/15 min) | command |",
             "| --- | --- | --- | --- | --- | --- |"]
    for f in figs:
        met = {True: "yes", False: "**no**", None: "-"}[f["met"]]
        cmd = f["command"].replace("|", "\\|")
        value = f["value"] + (" <br><sub>%s</sub>" % f["detail"].replace("|", "\\|") if f.get("detail") else "")
        lines.append("| %s | %s | %s | %s | %s | `%s` |" % (
            f["name"], value, f["target"] or "-", met, f["load"], cmd))
    commits = sorted({f.get("commit", "") for f in figs})
    whens = sorted(f.get("when", "") for f in figs)
    lines.append("")
    if whens:
        lines.append("Measured %s to %s on commit(s): %s. Machine: %d cores." % (
            whens[0], whens[-1], "; ".join(c for c in commits if c) or "?", os.cpu_count() or 0))
    for title, sec in data["sections"].items():
        lines += ["", "### %s" % title, "", "(load %s, %s)" % (sec["load"], sec["when"]), "",
                  "```", sec["text"].rstrip(), "```"]
    lines += ["", END]
    block = "\n".join(lines)
    if RESULTS_MD.exists():
        old = RESULTS_MD.read_text(encoding="utf-8")
        if BEGIN in old and END in old:
            head, rest = old.split(BEGIN, 1)
            _, tail = rest.split(END, 1)
            RESULTS_MD.write_text(head + block + tail, encoding="utf-8")
            return
        RESULTS_MD.write_text(old.rstrip() + "\n\n" + block + "\n", encoding="utf-8")
        return
    RESULTS_MD.write_text("# irilint benchmark results\n\nSee `bench/README.md` for the recipe.\n\n"
                          + block + "\n", encoding="utf-8")
