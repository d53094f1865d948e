#!/usr/bin/env python3
"""cProfile of the in-process figures: where the per-IRI and per-input time goes.

    python bench/profile_inprocess.py iri-ascii          # figure 3, ASCII, default rules
    python bench/profile_inprocess.py iri-nonascii       # figure 3, non-ASCII, select=ALL
    python bench/profile_inprocess.py patho:combining    # figure 4, one pathological input
    python bench/profile_inprocess.py lsp-doc            # what the server runs for lsp_bench's 5,000-line file
    python bench/profile_inprocess.py scale:combining    # time at 1/4, 1/2, 1 of the input: linear or not?
    python bench/profile_inprocess.py --sort cumulative --top 30 iri-ascii
    python bench/profile_inprocess.py cpu:iri-nonascii  # figure 3 in CPU time, no profiler

Prints the top functions by self time (``--sort tottime``, default) with
call counts.  cProfile slows Python code down ~2x, evenly enough to rank.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def _iri_case(non_ascii: bool, n: int):
    import run_bench
    from irilint.config import Settings
    from irilint.engine import Engine
    from irilint.scanners import scanner_for

    forms = run_bench.NON_ASCII_FORMS if non_ascii else run_bench.ASCII_FORMS
    text = run_bench.per_iri_doc(forms, n)
    settings = Settings(select=("ALL",)) if non_ascii else Settings()
    scanner = scanner_for(path="doc.txt")
    eng = Engine()
    eng.check_text(text, path="doc.txt", settings=settings, scanner=scanner)
    return lambda: eng.check_text(text, path="doc.txt", settings=settings, scanner=scanner)


def _patho_text(name: str) -> tuple:
    import pathological

    desc, fname, make = pathological.INPUTS[name]
    return make(), fname


def _patho_case(name: str):
    from irilint.engine import Engine

    text, fname = _patho_text(name)
    eng = Engine()
    return lambda: eng.check_text(text, path=fname)


def _lsp_case():
    import lsp_bench
    from irilint.engine import Engine
    from irilint.lines import LineIndex
    from irilint.lsp.diagnostics import to_diagnostic

    text = lsp_bench.markdown_doc(5000)
    eng = Engine()

    def run():
        index = LineIndex(text)
        res = eng.check_text(text, path="doc.md", language_id="markdown", index=index)
        return [to_diagnostic(f, index, "utf-16", 1) for f in res.findings]
    run()
    return run


def cpu_per_iri(target: str, n: int) -> None:
    """Figure 3 as run_bench.py computes it ((check_text - scan) / N), in CPU
    time (``time.process_time``, median of 5): on a shared machine wall
    time varies with the load, CPU time much less."""
    import statistics

    import run_bench
    from irilint.config import Settings
    from irilint.engine import Engine
    from irilint.scanners import scanner_for

    non_ascii = target == "iri-nonascii"
    text = run_bench.per_iri_doc(run_bench.NON_ASCII_FORMS if non_ascii else run_bench.ASCII_FORMS, n)
    for label, settings in (("default rules", Settings()), ("select=ALL", Settings(select=("ALL",)))):
        scanner = scanner_for(path="doc.txt")
        eng = Engine()
        eng.check_text(text, path="doc.txt", settings=settings, scanner=scanner)
        ts_scan, ts_check = [], []
        for _ in range(5):
            t0 = time.process_time()
            list(scanner.scan(text))  # a generator: taken to its end
            t1 = time.process_time()
            eng.check_text(text, path="doc.txt", settings=settings, scanner=scanner)
            ts_scan.append(t1 - t0)
            ts_check.append(time.process_time() - t1)
        scan, check = statistics.median(ts_scan), statistics.median(ts_check)
        print("%s, %s: %.2f us CPU per IRI beyond the scan (check %.2f, scan %.2f; %d IRIs)" % (
            target, label, (check - scan) / n * 1e6, check / n * 1e6, scan / n * 1e6, n))


def scale(name: str) -> None:
    """Engine time at 1/4, 1/2 and all of a pathological input (cut in the middle
    of its repeated part): a linear cost doubles with the size."""
    from irilint.engine import Engine

    text, fname = _patho_text(name)
    eng = Engine()
    for frac in (0.25, 0.5, 1.0):
        n = int(len(text) * frac)
        t = text[:n] if frac < 1 else text
        if name == "combining" or name == "long-iri":
            t = t + " for details.\n"
        eng.check_text(t, path=fname)
        ts = []
        for _ in range(3):
            t0 = time.perf_counter()
            eng.check_text(t, path=fname)
            ts.append(time.perf_counter() - t0)
        ts.sort()
        print("%-12s %5.2f of the input (%8d chars): %8.1f ms" % (name, frac, len(t), ts[1] * 1e3))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target")
    ap.add_argument("--sort", default="tottime")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("-n", type=int, default=5000, help="IRIs for iri-* targets")
    args = ap.parse_args()
    t = args.target
    if t.startswith("scale:"):
        scale(t.split(":", 1)[1])
        return 0
    if t in ("cpu:iri-ascii", "cpu:iri-nonascii"):
        cpu_per_iri(t.split(":", 1)[1], args.n)
        return 0
    if t == "iri-ascii":
        fn = _iri_case(False, args.n)
    elif t == "iri-nonascii":
        fn = _iri_case(True, args.n)
    elif t.startswith("patho:"):
        fn = _patho_case(t.split(":", 1)[1])
    elif t == "lsp-doc":
        fn = _lsp_case()
    else:
        ap.error("unknown target %r" % t)
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    fn()
    prof.disable()
    wall = time.perf_counter() - t0
    out = io.StringIO()
    st = pstats.Stats(prof, stream=out)
    st.sort_stats(args.sort).print_stats(args.top)
    text = out.getvalue()
    # shorten the paths of irilint's own files
    text = text.replace(str(Path(__file__).resolve().parent.parent) + "/", "")
    print("%s: %.1f ms under cProfile" % (t, wall * 1e3))
    print("\n".join(l for l in text.splitlines() if l.strip() and not l.startswith("   Ordered by")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
