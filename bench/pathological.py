#!/usr/bin/env python3
"""Linear cost on pathological inputs (issue 7, figure 4).

Generates the inputs into a temporary directory and, for each, compares the
time per MB with ordinary text of similar size (a slice of the corpus: man
pages, .txt and .rst files, concatenated).  Target: at most 2x.

Two measurements per input:

* ``engine``: in-process ``Engine().check_text(text, path=...)`` (the scanner
  the file's extension chooses, default rules), median of several runs.  This
  is the figure the target is judged on: a whole process spends ~0.1 s
  starting, which would hide a 2x difference on 1 MB.
* ``process``: ``irilint check --jobs 1 --no-cache FILE -q``, median wall
  time, shown for reference.

Also prints, for reference, the time Python's "obvious URL regex"
``re.finditer(r'[a-z][a-z0-9+.-]*://\\S+', text)`` takes on the
100 KB-of-letters input (quadratic: it tries every start position and scans
to the end of the word each time).

    python bench/pathological.py                 # all inputs
    python bench/pathological.py --only percent,md-parens --runs 3
    python bench/pathological.py --keep DIR      # keep the generated files
"""
from __future__ import annotations

import argparse
import base64
import os
import random
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (CORPUS, BenchError, Figure, irilint_argv, loadavg, median, record,  # noqa: E402
                     require_corpus, run_timed, wait_for_quiet)

MB = 1_000_000
TEXT_SUFFIXES = (".man", ".txt", ".rst")


def corpus_slice(nbytes: int, *, seed: int = 7, root: Optional[Path] = None) -> str:
    """About ``nbytes`` (UTF-8) of ordinary documentation text: whole corpus
    files (man pages, .txt, .rst) taken across every package, concatenated.
    ``root`` is another corpus folder (default: the built corpus)."""
    if root is None:
        require_corpus()
        root = CORPUS
    elif not Path(root).is_dir():
        raise BenchError("no corpus folder at %s" % root)
    files: List[Path] = []
    for dirpath, _dirs, names in os.walk(root):
        for n in names:
            if n.endswith(TEXT_SUFFIXES):
                files.append(Path(dirpath) / n)
    files.sort()
    rng = random.Random(seed)
    rng.shuffle(files)
    parts: List[str] = []
    size = 0
    for p in files:
        try:
            t = p.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        b = len(t.encode("utf-8"))
        if size + b > nbytes * 1.05 and size > nbytes * 0.5:
            continue
        parts.append(t)
        size += b
        if size >= nbytes:
            break
    if size < nbytes * 0.5:
        raise BenchError("the corpus has too little text for a %d-byte slice" % nbytes)
    return "".join(parts)


def _alnum(n: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    alphabet = string.ascii_lowercase + string.digits
    s = "".join(rng.choice(alphabet) for _ in range(n))
    # the obvious regex needs a letter to start a try: make sure it has many
    return "a" + s[1:]


def _long_iri() -> str:
    path = "".join("/section-%d/item_%d" % (i, i * 7) for i in range(MB // 24))
    return "See https://example.org" + path[:MB - 40] + "?q=1 for details.\n"


def _md_parens() -> str:
    md = []
    md.append("[link](https://example.org/" + "(" * 10_000 + "\n\n")
    md.append("(" * 10_000 + " see https://example.org/x)\n\n")
    md.append("[a](" * 10_000 + "\n\n")
    md.append("Text [with a link](https://example.com/ok) and <https://example.net/> at the end.\n")
    return "".join(md)


def _data_uri() -> str:
    payload = base64.b64encode(random.Random(3).randbytes(750_000)).decode("ascii")
    return "Image: data:image/png;base64," + payload + " end.\n"


#: The 10 MB single line is the 10 MB ordinary slice with its line breaks made spaces.
SLICE_SEED = 5

#: name -> (description, file name, function making the text)
INPUTS: Dict[str, Tuple[str, str, Callable[[], str]]] = {
    "percent": ("1 MB of `%`", "percent.txt", lambda: "%" * MB),
    "http-run": ("1 MB of `http://`, no spaces", "http-run.txt", lambda: "http://" * (MB // 7)),
    "long-iri": ("one 1 MB IRI", "long-iri.txt", _long_iri),
    # U+0301, 2 bytes each in UTF-8, inside an IRI (where the rules look)
    "combining": ("1 MB of combining marks (in an IRI)", "combining.txt",
                  lambda: "See https://example.org/e" + "\u0301" * (MB // 2) + " for details.\n"),
    "single-line": ("a 10 MB single line (corpus text)", "single-line.txt",
                    lambda: corpus_slice(10 * MB, seed=SLICE_SEED).replace("\r", " ").replace("\n", " ")),
    "md-parens": ("Markdown: 10,000 unbalanced `(` (3 patterns)", "md-parens.md", _md_parens),
    "letters": ("100 KB of letters/digits, no `://`, then one URL", "letters.txt",
                lambda: _alnum(100_000) + " https://example.org/after\n"),
    "data-uri": ("a 1 MB base64 `data:` URI", "data-uri.txt", _data_uri),
}


def time_engine(text: str, path: str, runs: int) -> float:
    """Median seconds of ``Engine().check_text`` (after one warm-up run)."""
    from irilint.engine import Engine

    eng = Engine()
    eng.check_text(text, path=path)  # warm-up: imports, rule selection
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        eng.check_text(text, path=path)
        ts.append(time.perf_counter() - t0)
    return median(ts)


def obvious_regex_seconds(text: str, timeout: float) -> Optional[float]:
    """Seconds for the obvious URL regex, in a child process (None: timed out)."""
    code = ("import re,sys,time;t=open(sys.argv[1],encoding='utf-8').read();t0=time.perf_counter();"
            "n=sum(1 for _ in re.finditer(r'[a-z][a-z0-9+.-]*://\\S+',t));"
            "print(time.perf_counter()-t0, n)")
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write(text)
    try:
        p = subprocess.run([sys.executable, "-c", code, f.name], capture_output=True, text=True,
                           timeout=timeout)
        return float(p.stdout.split()[0])
    except subprocess.TimeoutExpired:
        return None
    finally:
        os.unlink(f.name)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per measurement (median)")
    ap.add_argument("--only", default="", help="comma-separated input names")
    ap.add_argument("--keep", metavar="DIR", help="write the inputs here and keep them")
    ap.add_argument("--no-process", action="store_true", help="skip the whole-process timings")
    ap.add_argument("--no-regex", action="store_true", help="skip the obvious-regex reference")
    ap.add_argument("--regex-timeout", type=float, default=120.0)
    ap.add_argument("--no-store", action="store_true", help="do not write bench/results.json")
    args = ap.parse_args(argv)

    inputs = dict(INPUTS)
    if args.only:
        wanted = [s.strip() for s in args.only.split(",") if s.strip()]
        unknown = [w for w in wanted if w not in inputs]
        if unknown:
            raise SystemExit("unknown input(s) %s; known: %s" % (unknown, ", ".join(inputs)))
        inputs = {k: v for k, v in inputs.items() if k in wanted}
    tmpctx = None
    if args.keep:
        out_dir = Path(args.keep)
        out_dir.mkdir(parents=True, exist_ok=True)
    else:
        tmpctx = tempfile.TemporaryDirectory(prefix="irilint-patho-")
        out_dir = Path(tmpctx.name)
    # a 10 MB file is at the default max-file-size: raise it for the CLI runs
    (out_dir / ".irilint.toml").write_text("max-file-size = 100000000\n", encoding="utf-8")

    # (size class, suffix) -> (file, engine s/MB, process s/MB)
    baselines: Dict[Tuple[int, str], Tuple[str, float, float]] = {}

    def size_class(nbytes: int) -> int:
        for c in (100_000, MB, 10 * MB):
            if nbytes <= c * 1.5:
                return c
        return 10 * MB

    try:
        letters_text = None
        for name, (desc, fname, make) in inputs.items():
            text = make()
            if name == "letters":
                letters_text = text
            p = out_dir / fname
            p.write_text(text, encoding="utf-8")
            nbytes = p.stat().st_size
            cls = size_class(nbytes)
            key = (cls, p.suffix)
            if key not in baselines:
                base_text = corpus_slice(cls, seed=SLICE_SEED)
                bp = out_dir / ("ordinary-%d%s" % (cls, p.suffix))
                bp.write_text(base_text, encoding="utf-8")
                bsize = bp.stat().st_size
                wait_for_quiet()
                be = time_engine(base_text, str(bp), args.runs) / (bsize / MB)
                bproc = float("nan")
                if not args.no_process:
                    cmd = irilint_argv() + ["check", "--jobs", "1", "--no-cache", "-q", str(bp)]
                    bproc = median([run_timed(cmd).wall for _ in range(args.runs)]) / (bsize / MB)
                baselines[key] = (str(bp), be, bproc)
                print("ordinary text, %.2f MB (%s): engine %.1f ms/MB, process %.1f ms/MB (load %s)" % (
                    bsize / MB, bp.name, be * 1e3, bproc * 1e3, loadavg()))
            bfile, be, bproc = baselines[key]
            load = wait_for_quiet()
            t = time_engine(text, str(p), args.runs)
            per_mb = t / (nbytes / MB)
            ratio = per_mb / be
            detail = "engine %.1f ms for %.2f MB = %.1f ms/MB; ordinary %s %.1f ms/MB" % (
                t * 1e3, nbytes / MB, per_mb * 1e3, Path(bfile).name, be * 1e3)
            if not args.no_process:
                cmd = irilint_argv() + ["check", "--jobs", "1", "--no-cache", "-q", str(p)]
                pw = median([run_timed(cmd, timeout=600).wall for _ in range(args.runs)])
                detail += "; whole process %.0f ms (%.2fx ordinary per MB)" % (
                    pw * 1e3, (pw / (nbytes / MB)) / bproc)
            cmd_text = ("python bench/pathological.py --only %s --runs %d" % (name, args.runs))
            record(Figure("patho." + name, "linear cost: " + desc, "%.2fx ordinary/MB" % ratio,
                          "<= 2x", ratio <= 2.0, load, cmd_text, detail), store=not args.no_store)
        if letters_text is not None and not args.no_regex:
            load = loadavg()
            secs = obvious_regex_seconds(letters_text, args.regex_timeout)
            value = ("%.1f s" % secs) if secs is not None else (">%.0f s (timed out)" % args.regex_timeout)
            record(Figure("patho.obvious-regex", "reference: obvious URL regex on 100 KB of letters",
                          value, "", None, load,
                          "python bench/pathological.py --only letters (re.finditer(r'[a-z][a-z0-9+.-]*://\\S+', text))"),
                   store=not args.no_store)
    finally:
        if tmpctx is not None:
            tmpctx.cleanup()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as exc:
        print("error: %s" % exc, file=sys.stderr)
        sys.exit(2)
