#!/usr/bin/env python3
"""Speed where people wait, each figure side by side with its yardstick.

One run measures every row of issue 18's table against the yardstick it is
judged by, alternating the two commands (rotating their order each round) so
that a change of load on this shared machine hits both, and prints the
ratios, which are what to compare between runs:

* ``cli``: ``irilint check --jobs 1 --no-cache -q CORPUS`` vs
  ``rg --count-matches -j1 URL-REGEX CORPUS``: MB/s and the ratio;
* ``html``: the same on the corpus's HTML files alone (copied to a
  temporary folder), link-dense documentation;
* ``floor``: the ``cli`` command with every scanner finding nothing
  (bench/no_candidates.py) vs the ``cli`` command and rg: the fixed cost of
  a run, which no speed-up of the scanners and rules removes;
* ``free-scan``: the ``cli`` command with scanning made free
  (bench/free_scanning.py: each scanner replays what it found in a run
  before, in one process) vs the whole run in that process: what no faster
  scanner removes, against the 100 MB/s budget;
* ``startup``: ``irilint check one.md`` (default jobs, cache on) vs
  ``python -c pass``, wall times;
* ``combining``: in-process ``Engine().check_text`` per MB of
  bench/pathological.py's 1 MB of one base character and combining marks
  vs per MB of ordinary text (.txt, .rst and man pages of the corpus);
* ``cache``: ``irilint check --jobs 1 CORPUS`` with a fresh cache (cold)
  vs the same again (warm);
* ``findings``: ``irilint check --no-cache --jobs 1 --format json|sarif|text``
  on bench/dense_findings.py's document dense with findings (1 and 2 MB,
  ``--findings-mb`` for more, e.g. 1,2,10): wall time, µs per finding and
  peak RSS, vs the same command on a file of the same size with the same
  references and no finding;
* ``server``: ``didChange`` to ``publishDiagnostics`` on bench/lsp_bench.py's
  5,000-line Markdown file (500 IRIs, debounce 0), range edits and whole
  texts, ``irilint server`` vs bench/bare_pygls_server.py (a bare pygls 2
  server publishing no diagnostics); and a plain-text document dense with
  findings (1 MB and 2 MB of issue 18's line): didOpen and a one-character
  edit to the diagnostics, microseconds per finding, beside the bare
  server's times for the same document.

    python bench/speed.py --corpus bench/real-corpus          # every row
    python bench/speed.py --corpus DIR --only cli,startup --runs 3
    python bench/speed.py --only combining,server             # no corpus needed for server
    python bench/speed.py --only findings --findings-mb 1,2,10

The corpus is ``--corpus`` (default: bench/corpus when built, else
bench/real-corpus).  ripgrep missing: the rows that need it say so and the
others still run.  Nothing is stored; the table is printed on stdout and
the progress on stderr.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (BENCH, CORPUS, RG_URL_REGEX, BenchError, irilint_argv, loadavg,  # noqa: E402
                     median, p95, run_timed, shell, tree_bytes, wait_for_quiet)

ROWS = ["cli", "html", "floor", "free-scan", "startup", "combining", "cache", "findings", "server"]
MB = 1_000_000


@dataclass
class Row:
    what: str
    irilint: str
    yardstick: str
    ratio: str
    goal: str
    met: Optional[bool]
    command: str
    load: str


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def default_corpus() -> Path:
    if (CORPUS / "MANIFEST.json").exists():
        return CORPUS
    return BENCH / "real-corpus"


def alternate(cmds: Dict[str, Callable[[], float]], runs: int) -> Dict[str, List[float]]:
    """Run each measurement ``runs`` times, rotating their order each round."""
    names = list(cmds)
    times: Dict[str, List[float]] = {k: [] for k in names}
    for i in range(runs):
        order = names[i % len(names):] + names[:i % len(names)]
        for k in order:
            times[k].append(cmds[k]())
            log("    %s %.3f s (load %s)" % (k, times[k][-1], loadavg()))
    return times


def _throughput(what: str, root: Path, runs: int) -> Row:
    total, files = tree_bytes(root)
    ir = irilint_argv() + ["check", "--jobs", "1", "--no-cache", "-q", str(root)]
    rg_path = shutil.which("rg")
    log("  %s: %.1f MB in %d files, %d rounds" % (what, total / MB, files, runs))
    if rg_path is None:
        load = wait_for_quiet()
        t = median([run_timed(ir, ok_codes=(0, 1, 2)).wall for _ in range(runs)])
        return Row(what, "%.1f MB/s (%.2f s)" % (total / MB / t, t), "ripgrep missing (apt-get install ripgrep)",
                   "-", ">= 100 MB/s, <= 6x rg", None, shell(ir), load)
    rg = [rg_path, "--count-matches", "-j1", RG_URL_REGEX, str(root)]
    load = wait_for_quiet()
    times = alternate({
        "irilint": lambda: run_timed(ir, ok_codes=(0, 1, 2)).wall,
        "rg": lambda: run_timed(rg, ok_codes=(0, 1)).wall,
    }, runs)
    ti, tr = median(times["irilint"]), median(times["rg"])
    mbps = total / MB / ti
    ratio = ti / tr
    return Row(what, "%.1f MB/s (%.2f s)" % (mbps, ti), "rg %.2f s (%.0f MB/s)" % (tr, total / MB / tr),
               "%.1fx rg" % ratio, ">= 100 MB/s, <= 6x rg", mbps >= 100 and ratio <= 6,
               shell(ir) + "  vs  " + shell(rg), "%s .. %s" % (load, loadavg()))


def row_cli(corpus: Path, runs: int) -> Row:
    return _throughput("CLI --jobs 1 --no-cache, corpus", corpus, runs)


def row_html(corpus: Path, runs: int) -> Row:
    with tempfile.TemporaryDirectory(prefix="irilint-speed-html-") as tmp:
        n = 0
        for p in sorted(corpus.rglob("*.html")):
            if p.is_file() and not p.is_symlink():
                dest = Path(tmp) / p.relative_to(corpus)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(p, dest)
                n += 1
        if n == 0:
            raise BenchError("no .html file under %s" % corpus)
        row = _throughput("CLI --jobs 1 --no-cache, HTML of the corpus", Path(tmp), runs)
        row.command = row.command.replace(tmp, "HTML-COPY")
        return row


def row_floor(corpus: Path, runs: int) -> Row:
    total, files = tree_bytes(corpus)
    args = ["check", "--jobs", "1", "--no-cache", "-q", str(corpus)]
    ir = irilint_argv() + args
    floor = [sys.executable, str(BENCH / "no_candidates.py")] + args
    cmds = {
        "irilint": lambda: run_timed(ir, ok_codes=(0, 1, 2)).wall,
        "no candidates": lambda: run_timed(floor, ok_codes=(0, 1, 2)).wall,
    }
    rg_path = shutil.which("rg")
    if rg_path is not None:
        rg = [rg_path, "--count-matches", "-j1", RG_URL_REGEX, str(corpus)]
        cmds["rg"] = lambda: run_timed(rg, ok_codes=(0, 1)).wall
    log("  floor: %.1f MB in %d files, %d rounds" % (total / MB, files, runs))
    load = wait_for_quiet()
    times = alternate(cmds, runs)
    tf, ti = median(times["no candidates"]), median(times["irilint"])
    rg_side = "rg %.2f s, %.1fx" % (median(times["rg"]), tf / median(times["rg"])) if "rg" in times else "ripgrep missing"
    return Row("CLI with scanners that find nothing (no_candidates.py), corpus",
               "%.1f MB/s (%.2f s, %.0f us a file)" % (total / MB / tf, tf, tf / max(files, 1) * 1e6),
               "the whole run %.2f s; %s" % (ti, rg_side), "%.0f%% of the whole run" % (100 * tf / ti),
               "- (bounds the >= 100 MB/s goal)", None, shell(floor) + "  vs  " + shell(ir),
               "%s .. %s" % (load, loadavg()))


def row_free_scan(corpus: Path, runs: int) -> Row:
    total, files = tree_bytes(corpus)
    args = ["check", "--jobs", "1", "--no-cache", "-q", str(corpus)]
    cmd = [sys.executable, str(BENCH / "free_scanning.py")] + args
    log("  free-scan: %.1f MB in %d files, %d rounds" % (total / MB, files, runs))
    load = wait_for_quiet()
    whole: List[float] = []
    free: List[float] = []
    for _ in range(runs):
        run = run_timed(cmd, ok_codes=(0,))
        figures = json.loads(run.stderr.decode("utf-8", "replace").strip().splitlines()[-1])
        whole.append(figures["whole_s"])
        free.append(figures["free_scan_s"])
        log("    whole %.3f s, scanning free %.3f s (load %s)" % (whole[-1], free[-1], loadavg()))
    tw, tf = median(whole), median(free)
    budget = total / MB / 100
    return Row("CLI with scanning made free (free_scanning.py), corpus",
               "%.1f MB/s (%.2f s)" % (total / MB / tf, tf),
               "the whole run %.2f s (both in one process)" % tw,
               "%.0f%% of the whole run; 100 MB/s is %.2f s" % (100 * tf / tw, budget),
               "- (bounds what faster scanners give)", None, shell(cmd), "%s .. %s" % (load, loadavg()))


#: Runs a command with its stdout to a file and prints its wall time and
#: peak RSS (KB): ru_maxrss of RUSAGE_CHILDREN is the largest child's, so
#: each command is measured from a fresh wrapper process of its own.
_PEAK_WRAPPER = """import resource, subprocess, sys, time
with open(sys.argv[1], "wb") as out:
    t0 = time.perf_counter()
    code = subprocess.call(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
print(code, wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def run_peak(cmd: Sequence[str], out: Path, cwd: Path) -> "tuple":
    """``cmd`` run once, its stdout to ``out``: (wall seconds, peak RSS in MB)."""
    import subprocess

    from _common import bench_env

    p = subprocess.run([sys.executable, "-c", _PEAK_WRAPPER, str(out)] + list(cmd), capture_output=True,
                       text=True, cwd=str(cwd), env=bench_env())
    try:
        code, wall, rss = p.stdout.split()
    except ValueError:
        raise BenchError("cannot measure %s: %s" % (shell(cmd), p.stderr[-2000:]))
    if int(code) not in (0, 1):
        raise BenchError("exit status %s from %s" % (code, shell(cmd)))
    return float(wall), int(rss) / 1024


def rows_findings(sizes: Sequence[float]) -> List[Row]:
    """A document dense with findings, per size and output format, beside
    the same command on a file as large with the same references and none."""
    import dense_findings

    rows: List[Row] = []
    with tempfile.TemporaryDirectory(prefix="irilint-speed-findings-") as tmp:
        folder = Path(tmp)
        for mb in sizes:
            dense, clean = folder / ("dense-%gmb.md" % mb), folder / ("clean-%gmb.md" % mb)
            dense_findings.write_dense(dense, mb)
            # the same references, each made clean: no finding
            clean.write_text(dense_findings.dense_text(mb).replace("%zz", "/zz"), encoding="utf-8")
            base = irilint_argv() + ["check", "--no-cache", "--jobs", "1", "--format"]
            # the findings, counted from the text output (one line each)
            run_peak(base + ["text", dense.name], folder / "out", folder)
            with open(folder / "out", "rb") as fh:
                count = sum(1 for _ in fh)
            if not count:
                raise BenchError("no finding in %s" % dense)
            for fmt in ("json", "sarif", "text"):
                load = wait_for_quiet()
                wall, rss = run_peak(base + [fmt, dense.name], folder / "out", folder)
                clean_wall, clean_rss = run_peak(base + [fmt, clean.name], folder / "out", folder)
                per = wall / count * 1e6
                over = (wall - clean_wall) / count * 1e6
                met = per <= 30 and (mb < 10 or rss <= 100)
                rows.append(Row(
                    "%g MB dense with findings (%d), --format %s" % (mb, count, fmt),
                    "%.2f s, %.0f µs/finding, %.0f MB peak" % (wall, per, rss),
                    "no findings: %.2f s, %.0f MB peak" % (clean_wall, clean_rss),
                    "%.0f µs/finding over it" % over,
                    "<= 30 µs/finding; <= 100 MB at 10 MB", met,
                    shell(base + [fmt, "DENSE.md"]) + "  vs  the same on CLEAN.md  "
                    "(python bench/dense_findings.py DENSE.md %g)" % mb,
                    "%s .. %s" % (load, loadavg())))
    return rows


def row_startup(runs: int) -> Row:
    with tempfile.TemporaryDirectory(prefix="irilint-speed-startup-") as tmp:
        (Path(tmp) / "one.md").write_text(
            "# Notes\n\nSee [the docs](https://example.com/docs) and <https://例え.jp/パス>.\n", encoding="utf-8")
        cmd = irilint_argv() + ["check", "one.md"]
        py = [sys.executable, "-c", "pass"]
        run_timed(cmd, cwd=Path(tmp))  # bytecode and OS file cache
        load = wait_for_quiet()
        times = alternate({
            "irilint": lambda: run_timed(cmd, cwd=Path(tmp)).wall,
            "python": lambda: run_timed(py, cwd=Path(tmp)).wall,
        }, runs)
    ti, tp = median(times["irilint"]), median(times["python"])
    return Row("start-up: irilint check one.md", "%.0f ms" % (ti * 1e3), "python -c pass %.0f ms" % (tp * 1e3),
               "%.1fx" % (ti / tp), "<= 120 ms", ti <= 0.120, "irilint check one.md  vs  python -c pass",
               "%s .. %s" % (load, loadavg()))


def row_combining(corpus: Path, runs: int) -> Row:
    import pathological

    ordinary = pathological.corpus_slice(MB, seed=pathological.SLICE_SEED, root=corpus)
    marks = pathological.INPUTS["combining"][2]()
    load = wait_for_quiet()
    per_mb = {}
    for name, text, path in (("ordinary", ordinary, "ordinary.txt"), ("combining", marks, "combining.txt")):
        per_mb[name] = pathological.time_engine(text, path, runs) / (len(text.encode("utf-8")) / MB)
    ratio = per_mb["combining"] / per_mb["ordinary"]
    return Row("1 MB of one base character and combining marks", "%.1f ms/MB" % (per_mb["combining"] * 1e3),
               "ordinary text %.1f ms/MB" % (per_mb["ordinary"] * 1e3), "%.2fx" % ratio, "<= 2x", ratio <= 2,
               "python bench/pathological.py --only combining  (in-process Engine().check_text)", load)


def row_cache(corpus: Path, runs: int) -> Row:
    cmd = irilint_argv() + ["check", "--jobs", "1", "-q", str(corpus)]
    cold, warm = [], []
    load = wait_for_quiet()
    with tempfile.TemporaryDirectory(prefix="irilint-speed-cache-") as tmp:
        for i in range(max(1, runs // 2)):
            root = Path(tmp) / ("root%d" % i)
            root.mkdir()
            env = {"IRILINT_CACHE_ROOT": str(root)}
            cold.append(run_timed(cmd, env_extra=env, ok_codes=(0, 1, 2)).wall)
            log("    cold %.2f s (load %s)" % (cold[-1], loadavg()))
            for _ in range(2):
                warm.append(run_timed(cmd, env_extra=env, ok_codes=(0, 1, 2)).wall)
                log("    warm %.2f s (load %s)" % (warm[-1], loadavg()))
    ratio = median(cold) / median(warm)
    return Row("cache: warm vs cold, corpus, --jobs 1", "warm %.2f s" % median(warm),
               "cold %.2f s" % median(cold), "%.1fx faster" % ratio, ">= 10x faster", ratio >= 10,
               "IRILINT_CACHE_ROOT=$(mktemp -d) " + shell(cmd) + "  # cold, then warm",
               "%s .. %s" % (load, loadavg()))


def rows_server(runs: int, changes: int) -> List[Row]:
    import lsp_bench

    text = lsp_bench.markdown_doc(5000)
    rows = []
    for full in (False, True):
        load = wait_for_quiet()
        ir: List[float] = []
        bare: List[float] = []
        with tempfile.TemporaryDirectory(prefix="irilint-speed-lsp-") as tmp:
            for i in range(runs):
                order = [("irilint", None, ir), ("bare", lsp_bench.bare_server_argv(), bare)]
                if i % 2:
                    order.reverse()
                for name, argv, into in order:
                    ts, _cpu = lsp_bench.bench_changes(tmp, text, changes, full=full, argv=argv)
                    into.extend(ts)
                    log("    %s %s: median %.1f ms (load %s)" % (name, "full" if full else "range",
                                                                 median(ts) * 1e3, loadavg()))
        kind = "whole-text changes" if full else "didChange (range edits)"
        cmd = "python bench/lsp_bench.py --only change%s  vs  python bench/bare_pygls_server.py" % (
            " --sync full" if full else "")
        mr = median(ir) / median(bare)
        rows.append(Row("server: %s -> diagnostics, median" % kind, "%.1f ms" % (median(ir) * 1e3),
                        "bare pygls %.1f ms" % (median(bare) * 1e3), "%.1fx" % mr, "<= 2x", mr <= 2, cmd,
                        "%s .. %s" % (load, loadavg())))
        if not full:
            pr = p95(ir) / p95(bare)
            rows.append(Row("server: %s -> diagnostics, p95" % kind, "%.1f ms" % (p95(ir) * 1e3),
                            "bare pygls %.1f ms" % (p95(bare) * 1e3), "%.1fx" % pr, "<= 3x", pr <= 3, cmd,
                            "%s .. %s" % (load, loadavg())))
    rows.extend(rows_server_dense((1, 2)))
    return rows


def rows_server_dense(sizes_mb: Sequence[int]) -> List[Row]:
    """A plain-text document dense with findings (issue 18's line four
    times a line): didOpen and a one-character edit to their diagnostics,
    in microseconds per finding (goal <= 30), beside the bare server's
    times for the same document."""
    import lsp_bench

    rows = []
    for mb in sizes_mb:
        load = wait_for_quiet()
        with tempfile.TemporaryDirectory(prefix="irilint-speed-dense-") as tmp:
            d = lsp_bench.bench_dense(tmp, mb * MB)
            bare = lsp_bench.bench_dense(tmp, mb * MB, argv=lsp_bench.bare_server_argv())
        n = max(1, d["findings"])
        cmd = "python bench/lsp_bench.py --dense %d" % mb
        log("    dense %d MB: open %.2f s, edit %.2f s, %d findings (load %s)" % (
            mb, d["open"], d["edit"], n, loadavg()))
        for what, key in (("didOpen", "open"), ("one-character edit", "edit")):
            per = d[key] / n * 1e6
            rows.append(Row("server: %d MB dense with findings (%s findings), %s -> diagnostics" % (
                mb, format(n, ","), what), "%.2f s = %.1f us per finding (server CPU %.1f us)" % (
                    d[key], per, d[key + "_cpu"] / n * 1e6),
                "bare pygls %.2f s" % bare[key], "%.1fx" % (d[key] / max(bare[key], 1e-9)),
                "<= 30 us per finding", per <= 30, cmd, "%s .. %s" % (load, loadavg())))
    return rows


def print_table(rows: Sequence[Row]) -> None:
    print("| what | irilint | yardstick (same run) | ratio | goal | met | load (1/5/15 min) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        met = "-" if r.met is None else ("yes" if r.met else "**no**")
        print("| %s | %s | %s | %s | %s | %s | %s |" % (r.what, r.irilint, r.yardstick, r.ratio, r.goal, met, r.load))
    print()
    for r in rows:
        print("- %s: `%s`" % (r.what, r.command))


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=None, help="corpus folder (default: bench/corpus, "
                    "else bench/real-corpus)")
    ap.add_argument("--only", default=",".join(ROWS), help="comma-separated rows: " + ", ".join(ROWS))
    ap.add_argument("--runs", type=int, default=3, help="rounds per comparison (median)")
    ap.add_argument("--changes", type=int, default=30, help="didChange messages per server round")
    ap.add_argument("--findings-mb", default="1,2",
                    help="sizes (MB) of the document dense with findings (comma-separated; default 1,2)")
    args = ap.parse_args(argv)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in only if s not in ROWS]
    if unknown:
        raise SystemExit("unknown row(s) %s; known: %s" % (", ".join(unknown), ", ".join(ROWS)))
    corpus = (args.corpus or default_corpus()).resolve()
    if any(r in only for r in ("cli", "html", "floor", "free-scan", "combining", "cache")) and not corpus.is_dir():
        raise BenchError("no corpus folder at %s: give one with --corpus DIR "
                         "(or build bench/corpus with `python bench/build_corpus.py`)" % corpus)
    rows: List[Row] = []
    failed = False
    steps = {
        "cli": lambda: [row_cli(corpus, args.runs)],
        "html": lambda: [row_html(corpus, args.runs)],
        "floor": lambda: [row_floor(corpus, args.runs)],
        "free-scan": lambda: [row_free_scan(corpus, args.runs)],
        "startup": lambda: [row_startup(max(5, args.runs * 3))],
        "combining": lambda: [row_combining(corpus, max(5, args.runs))],
        "cache": lambda: [row_cache(corpus, args.runs)],
        "findings": lambda: rows_findings([float(x) for x in args.findings_mb.split(",") if x.strip()]),
        "server": lambda: rows_server(max(2, args.runs - 1), args.changes),
    }
    for name in only:
        log("%s ..." % name)
        try:
            rows.extend(steps[name]())
        except BenchError as exc:
            failed = True
            log("  %s: %s" % (name, exc))
            rows.append(Row(name, "error: %s" % str(exc).splitlines()[0], "-", "-", "-", None, "-", loadavg()))
    print_table(rows)
    return 2 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as exc:
        print("error: %s" % exc, file=sys.stderr)
        sys.exit(2)
