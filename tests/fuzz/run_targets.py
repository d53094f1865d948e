"""Run the fast fuzz targets (:mod:`targets`) with atheris (libFuzzer).

One target, libFuzzer's flags after its name::

    python tests/fuzz/run_targets.py iri -runs=100000 CORPUS_DIR

Every target, one after the other (each in its own process), with a table
of inputs, time, speed, crashes and the slowest input of each::

    nice -n 19 python tests/fuzz/run_targets.py --all --runs 60000 --out fuzz-out \
        --runs-for engine=20000 lsp_positions=40000 to_iri=40000

``--out`` gets a folder per target: ``corpus/`` (the seeds, then what the
fuzzer adds), the ``crash-*`` and ``timeout-*`` inputs, ``slowest`` (the
input that took the most CPU time, as a file) and ``log``.  Only the
functions of the target's layer (``targets.Target.layer``) are instrumented
for coverage: instrumenting the layers below too, or the standard library,
makes the targets several times slower for edges their own targets explore.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
import types

_HERE = os.path.dirname(os.path.abspath(__file__))
DICTIONARY = os.path.join(_HERE, "irilint.dict")


def instrument_layer(name: str) -> int:
    """Instrument the functions of target ``name``'s layer, and only those;
    returns how many.  The target runs once first so that the modules it
    imports lazily (the rules, on the engine's first check) are loaded and
    instrumented too."""
    import gc

    import atheris

    if _HERE not in sys.path:
        sys.path.insert(0, _HERE)
    import targets

    target = targets.TARGETS[name]
    target.function(targets.seeds(name)[0][:target.max_len])
    functions = [obj for obj in gc.get_objects()
                 if isinstance(obj, types.FunctionType) and isinstance(obj.__code__, types.CodeType)
                 and targets.in_layer(getattr(obj, "__module__", None) or "", target.layer)]
    for function in functions:
        # patches the code object in place: every reference sees it, and
        # the functions nested in it are patched with it
        atheris.instrument_func(function)
    return len(functions)


def fuzz_one(name: str, argv) -> None:
    import atheris

    count = instrument_layer(name)
    import targets

    target = targets.TARGETS[name]
    print("INFO: %s: instrumented %d functions of %s" % (name, count, ", ".join(target.layer)), file=sys.stderr)
    function, max_len = target.function, target.max_len
    slowest_path = os.environ.get("IRILINT_FUZZ_SLOWEST")
    slowest = [0.0]
    clock = time.process_time

    def one_input(data: bytes) -> None:
        data = data[:max_len]
        t = clock()
        function(data)
        dt = clock() - t
        if dt > slowest[0]:
            slowest[0] = dt
            if slowest_path:
                # libFuzzer exits without running Python's exit handlers:
                # keep the record on disk as it changes (rarely, after warm-up)
                with open(slowest_path, "wb") as fh:
                    fh.write(data)
                with open(slowest_path + ".json", "w") as fh:
                    json.dump({"cpu_seconds": dt}, fh)

    atheris.Setup([sys.argv[0]] + list(argv), one_input)
    atheris.Fuzz()


_STAT_RE = re.compile(r"stat::(\w+):\s*(\S+)")


def run_all(runs: int, out: str, only, timeout: int, runs_for=()) -> int:
    sys.path.insert(0, _HERE)
    import targets

    rows = []
    names = only or list(targets.TARGETS)
    per_target = dict(item.split("=", 1) for item in runs_for)
    for name in names:
        folder = os.path.join(out, name)
        corpus = os.path.join(folder, "corpus")
        os.makedirs(corpus, exist_ok=True)
        for i, seed in enumerate(targets.seeds(name)):
            with open(os.path.join(corpus, "seed%04d" % i), "wb") as fh:
                fh.write(seed)
        env = dict(os.environ, IRILINT_FUZZ_SLOWEST=os.path.join(folder, "slowest"))
        cmd = [sys.executable, os.path.abspath(__file__), name, "-runs=%d" % int(per_target.get(name, runs)),
               "-dict=" + DICTIONARY, "-max_len=%d" % targets.TARGETS[name].max_len,
               "-timeout=%d" % timeout, "-rss_limit_mb=2048", "-print_final_stats=1",
               "-artifact_prefix=" + folder + os.sep, corpus]
        started = time.monotonic()
        with open(os.path.join(folder, "log"), "w") as log:
            rc = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
        wall = time.monotonic() - started
        with open(os.path.join(folder, "log"), errors="replace") as fh:
            text = fh.read()
        stats = dict(_STAT_RE.findall(text))
        crashes = sorted(f for f in os.listdir(folder) if f.startswith(("crash-", "timeout-", "oom-")))
        slowest = None
        if os.path.exists(os.path.join(folder, "slowest.json")):
            with open(os.path.join(folder, "slowest.json")) as fh:
                slowest = json.load(fh)["cpu_seconds"]
        row = {"target": name, "inputs": int(stats.get("number_of_executed_units", 0)), "wall_s": round(wall, 1),
               "exec_per_s": int(stats.get("average_exec_per_sec", 0)), "crashes": crashes, "exit": rc,
               "slowest_cpu_s": slowest}
        rows.append(row)
        print(json.dumps(row), flush=True)
    total = sum(r["inputs"] for r in rows)
    print("| Target | Inputs | Wall (s) | exec/s | Crashes | Slowest input (CPU s) |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| `%s` | %s | %s | %s | %d | %s |" % (r["target"], "{:,}".format(r["inputs"]), r["wall_s"],
                                                   "{:,}".format(r["exec_per_s"]), len(r["crashes"]),
                                                   "%.4f" % r["slowest_cpu_s"] if r["slowest_cpu_s"] else "-"))
    print("| total | %s | %.0f | | %d | |" % ("{:,}".format(total), sum(r["wall_s"] for r in rows),
                                             sum(len(r["crashes"]) for r in rows)))
    return 1 if any(r["crashes"] or r["exit"] not in (0,) for r in rows) else 0


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "--all" or argv and argv[0].startswith("--"):
        p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
        p.add_argument("--all", action="store_true", required=True)
        p.add_argument("--runs", type=int, default=60000, help="inputs per target")
        p.add_argument("--out", default="fuzz-out", help="folder for corpora, crashes and logs")
        p.add_argument("--only", nargs="*", help="these targets only")
        p.add_argument("--runs-for", nargs="*", default=(), metavar="TARGET=N",
                       help="another number of inputs for these targets (the slow ones)")
        p.add_argument("--timeout", type=int, default=10, help="seconds before an input counts as a hang")
        a = p.parse_args(argv)
        return run_all(a.runs, a.out, a.only, a.timeout, a.runs_for)
    if not argv:
        print("usage: run_targets.py TARGET [libFuzzer flags] | --all [--runs N] [--out DIR]", file=sys.stderr)
        return 2
    fuzz_one(argv[0], argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
