#!/usr/bin/env python3
"""irilint benchmarks (issue 7: "Fast enough for every keystroke and every commit").

Prints every figure with the command that reproduces it, stores it in
``bench/results.json`` and rewrites the table of ``bench/results.md``.

    python bench/run_bench.py --all              # everything (~30 min on 2 cores)
    python bench/run_bench.py --quick            # a small subset, stores nothing
    python bench/run_bench.py --only cli,iri     # some groups:
        corpus   the corpus figures (MANIFEST.json, what irilint and rg read)
        cli      1: --jobs 1 throughput and ratio to rg; 2: --jobs 2 speedup, same output
        iri      3: per-IRI cost (in-process)
        patho    4: linear cost on pathological inputs (bench/pathological.py)
        startup  5: start-up time and python -X importtime
        cache    6: cold vs warm cache
        lsp      7: language server (bench/lsp_bench.py)
        profile  8: py-spy (else pyinstrument) profile of the CLI on the corpus

Timings are whole-process wall times (medians) unless a figure says
"in-process"; comparisons are measured in the same run, alternating the
commands.  The 1-minute load average is recorded with every figure; before
a measurement the script waits (``BENCH_MAX_WAIT``, default 30 s) for the
load to drop below ``BENCH_MAX_LOAD`` (default 1.5): other work shares the
machine.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (BENCH, CORPUS, REPO, RG_URL_REGEX, BenchError, Figure, add_section,  # noqa: E402
                     irilint_argv, loadavg, median, record, render_results_md, require_corpus,
                     run_timed, shell, tree_bytes, wait_for_quiet)

GROUPS = ["corpus", "cli", "iri", "patho", "startup", "cache", "lsp", "profile"]
QUICK_GROUPS = ["cli", "iri", "patho", "startup", "lsp"]


def rg_argv() -> List[str]:
    rg = shutil.which("rg")
    if rg is None:
        raise BenchError("ripgrep is missing: apt-get install -y ripgrep")
    return [rg]


# -- corpus ---------------------------------------------------------------

def fig_corpus(corpus: Path, store: bool) -> None:
    import json

    require_corpus(corpus)
    m = json.loads((corpus / "MANIFEST.json").read_text(encoding="utf-8"))
    total, files = tree_bytes(corpus)
    rg_files = subprocess.run(rg_argv() + ["--files", str(corpus)], capture_output=True, text=True,
                              timeout=300, cwd=REPO).stdout.count("\n")
    detail = "%d Debian packages, %d PyPI distributions; rg --files sees %d files" % (
        len(m.get("debian", {})), len(m.get("pypi", {})), rg_files)
    record(Figure("corpus.size", "corpus size (MANIFEST.json)", "%.1f MB, %d files" % (m["bytes"] / 1e6, m["files"]),
                  ">= 300 MB", m["bytes"] >= 300e6, loadavg(), "python bench/build_corpus.py", detail), store=store)


# -- 1 and 2: CLI throughput ------------------------------------------------

def fig_cli(corpus: Path, runs: int, store: bool, label: str) -> None:
    require_corpus(corpus) if corpus == CORPUS else None
    total, files = tree_bytes(corpus)
    j1 = irilint_argv() + ["check", "--jobs", "1", "--no-cache", str(corpus), "-q"]
    j2 = irilint_argv() + ["check", "--jobs", "2", "--no-cache", str(corpus), "-q"]
    rg = rg_argv() + ["--count-matches", "-j1", RG_URL_REGEX, str(corpus)]
    cmds = {"j1": j1, "j2": j2, "rg": rg}
    times = {k: [] for k in cmds}
    cpus = {k: [] for k in cmds}
    outputs = {"j1": set(), "j2": set()}
    loads = []
    load = wait_for_quiet()
    print("  corpus %s: %.1f MB in %d files; %d rounds of rg, --jobs 1, --jobs 2 (rotating order)" % (
        shell([str(corpus)]), total / 1e6, files, runs), file=sys.stderr)
    rcs = set()
    for i in range(runs):
        order = ["rg", "j1", "j2"]
        order = order[i % 3:] + order[:i % 3]
        for k in order:
            loads.append(loadavg())
            r = run_timed(cmds[k], keep_stdout=True, ok_codes=(0, 1, 2))
            times[k].append(r.wall)
            cpus[k].append(r.cpu)
            if k in outputs:
                outputs[k].add(r.stdout)
                rcs.add(r.returncode)
            print("    %s %.2f s, CPU %.2f s (load %s)" % (k, r.wall, r.cpu, loads[-1]), file=sys.stderr)
    mj1, mj2, mrg = median(times["j1"]), median(times["j2"]), median(times["rg"])
    mbps = total / 1e6 / mj1
    ratio = mj1 / mrg
    load_txt = "%s .. %s" % (load, loadavg())
    record(Figure("cli1.throughput" + label, "CLI --jobs 1 throughput" + label.replace(".", " "),
                  "%.1f MB/s" % mbps, ">= 100 MB/s", mbps >= 100, load_txt, shell(j1),
                  "median %.2f s of %d for %.1f MB (%d files), CPU %.2f s (%.1f MB per CPU second); exit codes %s" % (
                      mj1, runs, total / 1e6, files, median(cpus["j1"]), total / 1e6 / median(cpus["j1"]),
                      sorted(rcs))), store=store)
    record(Figure("cli1.rg-ratio" + label, "CLI --jobs 1 vs ripgrep (same run)" + label.replace(".", " "),
                  "%.1fx rg" % ratio, "<= 6x", ratio <= 6, load_txt, shell(rg),
                  "rg median %.2f s (%.0f MB/s); irilint %.2f s" % (mrg, total / 1e6 / mrg, mj1)), store=store)
    same = len(outputs["j1"]) == 1 and outputs["j1"] == outputs["j2"]
    speedup = mj1 / mj2
    out = next(iter(outputs["j1"]))
    record(Figure("cli2.speedup" + label, "CLI --jobs 2 speedup over --jobs 1" + label.replace(".", " "),
                  "%.2fx" % speedup, ">= 1.7x", speedup >= 1.7, load_txt, shell(j2),
                  "--jobs 2 median %.2f s (CPU %.2f s), --jobs 1 %.2f s (CPU %.2f s): on an idle machine at most "
                  "%.2fx (2 x CPU ratio)" % (mj2, median(cpus["j2"]), mj1, median(cpus["j1"]),
                                              2 * median(cpus["j1"]) / median(cpus["j2"]))), store=store)
    record(Figure("cli2.identical" + label, "CLI --jobs 2 output identical to --jobs 1" + label.replace(".", " "),
                  "identical" if same else "DIFFERENT", "identical", same, load_txt,
                  shell(j1) + " > a; " + shell(j2) + " > b; cmp a b",
                  "%d bytes, %d lines of findings; %d distinct --jobs 1 outputs, %d distinct --jobs 2 outputs" % (
                      len(out), out.count(b"\n"), len(outputs["j1"]), len(outputs["j2"]))), store=store)
    if not same:
        d = BENCH / "jobs-diff"
        d.mkdir(exist_ok=True)
        for k in outputs:
            for n, o in enumerate(sorted(outputs[k])):
                (d / ("%s-%d.txt" % (k, n))).write_bytes(o)
        print("  the outputs differ: written to %s" % d, file=sys.stderr)


# -- 3: per-IRI cost ----------------------------------------------------------

ASCII_FORMS = (
    "https://example.com/docs/page-{i}.html",
    "http://www.example.org/search?q=item{i}&lang=en",
    "https://github.com/example/project/issues/{i}",
    "ftp://ftp.example.net/pub/file-{i}.tar.gz",
    "https://example.net/a/b/c/{i}#section-{i}",
)
NON_ASCII_FORMS = (
    "https://пример.рф/путь/{i}",
    "https://例え.jp/パス/{i}",
    "http://résumé.example.org/ü/{i}",
    "https://مثال.example/مسار/{i}",
    "https://münchen.example.de/straße/{i}",
)


def per_iri_doc(forms, n: int) -> str:
    return "".join("Line %d: see %s for details.\n" % (i, forms[i % len(forms)].format(i=i)) for i in range(n))


def per_iri_cost(forms, n: int, select_all: bool, runs: int) -> tuple:
    from irilint.config import Settings
    from irilint.engine import Engine
    from irilint.scanners import scanner_for

    text = per_iri_doc(forms, n)
    settings = Settings(select=("ALL",)) if select_all else Settings()
    scanner = scanner_for(path="doc.txt")
    found = len(list(scanner.scan(text)))
    if found != n:
        raise BenchError("the scanner found %d IRIs in a document of %d" % (found, n))
    eng = Engine()
    res = eng.check_text(text, path="doc.txt", settings=settings, scanner=scanner)  # warm-up
    ts_scan, ts_check = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        list(scanner.scan(text))  # a generator: taken to its end
        t1 = time.perf_counter()
        eng.check_text(text, path="doc.txt", settings=settings, scanner=scanner)
        t2 = time.perf_counter()
        ts_scan.append(t1 - t0)
        ts_check.append(t2 - t1)
    scan, check = median(ts_scan), median(ts_check)
    return (check - scan) / n, scan / n, check / n, len(res.findings)


def fig_iri(n: int, runs: int, store: bool) -> None:
    cases = [
        ("iri.ascii", "per-IRI cost: ASCII, default rules", ASCII_FORMS, False, 2e-6, "<= 2 us"),
        ("iri.ascii-all", "per-IRI cost: ASCII, select=ALL (reference)", ASCII_FORMS, True, None, ""),
        ("iri.nonascii-all", "per-IRI cost: non-ASCII, select=ALL", NON_ASCII_FORMS, True, 30e-6, "<= 30 us"),
        ("iri.nonascii", "per-IRI cost: non-ASCII, default rules (reference)", NON_ASCII_FORMS, False, None, ""),
    ]
    for key, name, forms, all_, target, ttext in cases:
        load = wait_for_quiet()
        cost, scan, check, nf = per_iri_cost(forms, n, all_, runs)
        record(Figure(key, name, "%.1f us" % (cost * 1e6), ttext, None if target is None else cost <= target,
                      load, "python bench/run_bench.py --only iri --iri-count %d" % n,
                      "in-process: check_text %.1f us/IRI - scan %.1f us/IRI; %d IRIs, %d findings, median of %d" % (
                          check * 1e6, scan * 1e6, n, nf, runs)), store=store)


# -- 5: start-up ----------------------------------------------------------------

def fig_startup(runs: int, store: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="irilint-startup-") as tmp:
        f = Path(tmp) / "one-line-file.txt"
        f.write_text("See https://example.com/docs for details.\n", encoding="utf-8")
        cmd = irilint_argv() + ["check", "one-line-file.txt"]
        py = [sys.executable, "-c", "pass"]
        run_timed(cmd, cwd=Path(tmp))  # warm the OS file cache
        load = wait_for_quiet()
        ts, tp = [], []
        for _ in range(runs):
            ts.append(run_timed(cmd, cwd=Path(tmp)).wall)
            tp.append(run_timed(py, cwd=Path(tmp)).wall)
        run_timed(cmd, cwd=Path(tmp), bytecode=False)
        tn = [run_timed(cmd, cwd=Path(tmp), bytecode=False).wall for _ in range(max(3, runs // 2))]
        record(Figure("startup.check-nobytecode", "start-up without .pyc (reference: PYTHONDONTWRITEBYTECODE=1)",
                      "%.0f ms" % (median(tn) * 1e3), "", None, loadavg(),
                      "PYTHONDONTWRITEBYTECODE=1 irilint check one-line-file.txt  # editable install",
                      "every module compiled from source at every start; median of %d" % len(tn)), store=store)
        m = median(ts)
        record(Figure("startup.check", "start-up: irilint check one-line-file.txt", "%.0f ms" % (m * 1e3),
                      "<= 150 ms", m <= 0.150, load, "irilint check one-line-file.txt  # in an empty folder",
                      "median of %d (min %.0f ms), with .pyc as installed; bare `python -c pass` %.0f ms" % (
                          runs, min(ts) * 1e3, median(tp) * 1e3)), store=store)
        # importtime: the slowest imports (cumulative), median of 3 runs each
        imp = [sys.executable, "-X", "importtime", "-m", "irilint", "check", "one-line-file.txt"]
        run_timed(imp, cwd=Path(tmp))  # compile the .pyc
        samples = {}
        for _ in range(3):
            r = run_timed(imp, cwd=Path(tmp))
            for line in r.stderr.decode("utf-8", "replace").splitlines():
                mm = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)", line)
                if mm:
                    samples.setdefault(mm.group(4), []).append((int(mm.group(1)), int(mm.group(2)), len(mm.group(3))))
        rows = []
        for name, xs in samples.items():
            rows.append((median([x[1] for x in xs]), median([x[0] for x in xs]), xs[0][2], name))
        rows.sort(reverse=True)
        text = ["$ python -X importtime -m irilint check one-line-file.txt   (medians of 3 runs, load %s)" % loadavg(),
                "cumulative_ms  self_ms  module"]
        for cum, self_, depth, name in rows[:20]:
            text.append("%12.1f %8.1f  %s%s" % (cum / 1e3, self_ / 1e3, "  " * (depth // 2), name))
        by_self = sorted(rows, key=lambda r: -r[1])[:10]
        text += ["", "largest self times:"]
        for cum, self_, depth, name in by_self:
            text.append("%12.1f %8.1f  %s" % (cum / 1e3, self_ / 1e3, name))
        print("\n".join(text))
        if store:
            add_section("python -X importtime: top entries", "\n".join(text))


# -- 6: cache -----------------------------------------------------------------

def fig_cache(corpus: Path, cold_runs: int, warm_runs: int, store: bool) -> None:
    cmd = irilint_argv() + ["check", str(corpus), "--jobs", "1"]
    cold, warm = [], []
    cold_cpu, warm_cpu = [], []
    outs = set()
    load = wait_for_quiet()
    with tempfile.TemporaryDirectory(prefix="irilint-cache-") as tmp:
        for i in range(cold_runs):
            root = Path(tmp) / ("root%d" % i)
            root.mkdir()
            r = run_timed(cmd, env_extra={"IRILINT_CACHE_ROOT": str(root)}, keep_stdout=True, ok_codes=(0, 1, 2))
            cold.append(r.wall)
            cold_cpu.append(r.cpu)
            outs.add(r.stdout)
            print("    cold %.2f s, CPU %.2f s (load %s)" % (r.wall, r.cpu, loadavg()), file=sys.stderr)
        if not (root / ".irilint_cache").is_dir():
            raise BenchError("no cache was written in %s" % (root / ".irilint_cache"))
        for i in range(warm_runs):
            r = run_timed(cmd, env_extra={"IRILINT_CACHE_ROOT": str(root)}, keep_stdout=True, ok_codes=(0, 1, 2))
            warm.append(r.wall)
            warm_cpu.append(r.cpu)
            outs.add(r.stdout)
            print("    warm %.2f s, CPU %.2f s (load %s)" % (r.wall, r.cpu, loadavg()), file=sys.stderr)
        cache_bytes, cache_files = tree_bytes(root / ".irilint_cache")
    ratio = median(cold) / median(warm)
    record(Figure("cache.warm", "cache: cold / warm, irilint check corpus --jobs 1", "%.1fx" % ratio,
                  ">= 10x", ratio >= 10, "%s .. %s" % (load, loadavg()),
                  "IRILINT_CACHE_ROOT=$(mktemp -d) " + shell(cmd) + "  # twice",
                  "cold median %.2f s (%d runs, fresh cache each), warm median %.2f s (%d runs); CPU: cold "
                  "%.2f s, warm %.2f s (%.1fx); cache %.1f MB in %d files; outputs %s" % (
                      median(cold), len(cold), median(warm), len(warm), median(cold_cpu), median(warm_cpu),
                      median(cold_cpu) / median(warm_cpu), cache_bytes / 1e6, cache_files,
                      "identical" if len(outs) == 1 else "DIFFER")), store=store)


# -- 8: profile -----------------------------------------------------------------

def _folded_top(folded: Path, k: int) -> List[str]:
    """Self and inclusive time per function from py-spy's raw (folded) output."""
    import collections

    def fn(frame: str) -> str:
        if " (" not in frame:
            return frame
        name, where = frame.split(" (", 1)
        return "%s (%s)" % (name, where.split(":")[0].rstrip(")").replace(str(REPO) + "/", ""))

    self_t, incl, lines_t = collections.Counter(), collections.Counter(), collections.Counter()
    total = 0
    for line in folded.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack or not n.isdigit():
            continue
        n = int(n)
        total += n
        frames = stack.split(";")
        self_t[fn(frames[-1])] += n
        lines_t[frames[-1].replace(str(REPO) + "/", "")] += n
        for f in set(fn(x) for x in frames):
            incl[f] += n
    out = ["%d samples" % total, "", "self time by function:"]
    out += ["%6.1f%%  %s" % (100.0 * n / total, f) for f, n in self_t.most_common(k)]
    out += ["", "self time by line (top 10):"]
    out += ["%6.1f%%  %s" % (100.0 * n / total, f) for f, n in lines_t.most_common(10)]
    out += ["", "inclusive time (irilint functions, top 15):"]
    mine = [(f, n) for f, n in incl.most_common() if ("server/" in f or "rules/" in f)]
    out += ["%6.1f%%  %s" % (100.0 * n / total, f) for f, n in mine[:15]]
    return out


def fig_profile(corpus: Path, store: bool) -> None:
    """py-spy (sampling, no instrumentation) when it can attach, else pyinstrument."""
    bindir = Path(sys.executable).parent
    target = ["irilint", "check", "--jobs", "1", "--no-cache", "-q", str(corpus)]
    pyspy = bindir / "py-spy"
    with tempfile.TemporaryDirectory(prefix="irilint-prof-") as tmp:
        load = wait_for_quiet()
        if pyspy.exists():
            folded = Path(tmp) / "cli.folded"
            cmd = [str(pyspy), "record", "-r", "100", "-f", "raw", "-o", str(folded), "--"] + \
                irilint_argv() + target[1:]
            try:
                run_timed(cmd, ok_codes=(0, 1, 2), timeout=1800)
            except BenchError as exc:
                print("py-spy failed (%s); using pyinstrument" % exc, file=sys.stderr)
            if folded.exists():
                shown = "$ py-spy record -r 100 -f raw -o cli.folded -- %s\n(load %s)\n\n%s" % (
                    shell(target), load, "\n".join(_folded_top(folded, 15)))
                print(shown)
                if store:
                    add_section("profile of the CLI on the corpus (py-spy, top 15)", shown)
                return
        import importlib.util

        if importlib.util.find_spec("pyinstrument") is None:
            raise BenchError("neither py-spy nor pyinstrument works: pip install py-spy pyinstrument")
        flat = Path(tmp) / "flat.txt"
        cmd_flat = [str(bindir / "pyinstrument"), "-r", "text", "-p", "flat=true", "-p", "time=percent_of_total",
                    "-o", str(flat), "--from-path"] + target
        run_timed(cmd_flat, ok_codes=(0, 1, 2), timeout=1800)
        lines = [l for l in flat.read_text(encoding="utf-8", errors="replace").splitlines() if l.strip()]
        start = next((i for i, l in enumerate(lines) if re.match(r"\s*[\d.]+%?\s", l)), 0)
        shown = ("$ pyinstrument -r text -p flat=true -p time=percent_of_total --from-path %s\n(load %s)\n\n%s" % (
            shell(target), load, "\n".join(lines[start:start + 15])))
        print(shown)
        if store:
            add_section("profile of the CLI on the corpus (pyinstrument, top 15)", shown)


# -- main -----------------------------------------------------------------------

def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--all", action="store_true", help="every figure")
    g.add_argument("--quick", action="store_true", help="a small subset on a 1/10 corpus, stored nowhere")
    g.add_argument("--only", help="comma-separated groups: " + ", ".join(GROUPS))
    ap.add_argument("--corpus", default=str(CORPUS))
    ap.add_argument("--runs", type=int, default=5, help="runs per timing (median)")
    ap.add_argument("--iri-count", type=int, default=20000)
    ap.add_argument("--no-store", action="store_true", help="do not write bench/results.json/.md")
    args = ap.parse_args(argv)
    corpus = Path(args.corpus).resolve()
    store = not args.no_store and not args.quick
    if args.all:
        groups = GROUPS
    elif args.quick:
        groups = QUICK_GROUPS
    elif args.only:
        groups = [s.strip() for s in args.only.split(",") if s.strip()]
        bad = [x for x in groups if x not in GROUPS]
        if bad:
            ap.error("unknown group(s) %s; known: %s" % (bad, ", ".join(GROUPS)))
    else:
        ap.error("say --all, --quick or --only GROUPS")
    print("irilint benchmarks: %s; load %s; %d cores" % (", ".join(groups), loadavg(), os.cpu_count() or 0))
    failed = []
    quick_corpus = None
    for grp in groups:
        print("\n== %s" % grp)
        try:
            if grp == "corpus":
                fig_corpus(corpus, store)
            elif grp == "cli":
                if args.quick:
                    quick_corpus = corpus / "debian" / "manpages-de"
                    fig_cli(quick_corpus, 3, store, ".quick")
                else:
                    fig_cli(corpus, args.runs, store, "")
            elif grp == "iri":
                fig_iri(args.iri_count if not args.quick else 5000, args.runs if not args.quick else 3, store)
            elif grp == "patho":
                import pathological

                pa = ["--runs", str(3 if args.quick else args.runs)]
                if args.quick:
                    pa += ["--only", "percent,letters,md-parens", "--no-process", "--no-regex"]
                if not store:
                    pa.append("--no-store")
                pathological.main(pa)
            elif grp == "startup":
                fig_startup(5 if args.quick else 10, store)
            elif grp == "cache":
                fig_cache(corpus, 3, args.runs, store)
            elif grp == "lsp":
                import lsp_bench

                la = (["--changes", "10", "--big-changes", "3", "--init-runs", "3", "--docs", "10"]
                      if args.quick else [])
                if not store:
                    la.append("--no-store")
                lsp_bench.main(la)
            elif grp == "profile":
                fig_profile(corpus, store)
        except BenchError as exc:
            print("error in %s: %s" % (grp, exc), file=sys.stderr)
            failed.append(grp)
        if store:
            render_results_md()
    if store:
        print("\nresults: %s" % (BENCH / "results.md"))
    if failed:
        print("failed: %s" % ", ".join(failed), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
