#!/usr/bin/env python3
"""irilint's CLI with scanning made free: what a run costs when every
scanner hands back, at no cost, the references it found before, for the
``free-scan`` row of bench/speed.py.  A faster scanner (compiled, or written
in C) cannot make a run take less than this; the rest is the walk, reading,
the per-reference loop, the rules, the cache and the output.

    python bench/free_scanning.py check --jobs 1 --no-cache -q bench/real-corpus

Runs irilint three times in this one process, on the same arguments:

1. a normal run that records every scanner's references, by scanner and
   text (it warms the imports and the compiled expressions too);
2. the same run again, timed: the whole run;
3. the run with each scanner replaced by a replay of what it recorded, timed.

Prints ``{"whole_s": ..., "free_scan_s": ..., "replayed": N}`` on stderr
(seconds of wall time, and how many scans were replayed) and exits 3 if a
scan of the third run was not recorded, or if the second and third runs
print different output: the replay must be the same run without its
scanning.  Each run gets a cache of its own, removed at the end (a cache
key does not know the scanners were replaced).  Looking a text up costs a
hash of it, about 0.05 s for the whole corpus, which the figure includes.
"""
from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import time
from contextlib import redirect_stdout
from typing import Any, Dict, Iterator, List, Optional, Tuple


def _run(argv: List[str]) -> Tuple[float, str]:
    """One run of irilint's CLI in this process: (wall seconds, stdout)."""
    from irilint.cli import main as irilint_main

    out = io.StringIO()
    before = os.environ.get("IRILINT_CACHE_ROOT")
    with tempfile.TemporaryDirectory(prefix="irilint-free-scanning-") as cache:
        os.environ["IRILINT_CACHE_ROOT"] = cache
        try:
            t0 = time.perf_counter()
            with redirect_stdout(out):
                try:
                    irilint_main(argv)
                except SystemExit:
                    pass
            return time.perf_counter() - t0, out.getvalue()
        finally:
            if before is None:
                del os.environ["IRILINT_CACHE_ROOT"]
            else:
                os.environ["IRILINT_CACHE_ROOT"] = before


def main(argv: Optional[List[str]] = None) -> int:
    from irilint import scanners

    argv = sys.argv[1:] if argv is None else argv
    classes = list(scanners.SCANNERS.values())
    scans = {cls: cls.scan for cls in classes}
    recorded: Dict[Tuple[Any, str], List[Any]] = {}
    missed: List[str] = []
    replayed = [0]

    def recording(original: Any) -> Any:
        def scan(self: Any, text: str) -> Iterator[Any]:
            found = list(original(self, text))
            recorded[(id(self), text)] = found
            return iter(found)
        return scan

    def replay(self: Any, text: str) -> Iterator[Any]:
        found = recorded.get((id(self), text))
        if found is None:
            missed.append(self.name)
            return iter(())
        replayed[0] += 1
        return iter(found)

    try:
        for cls in classes:
            cls.scan = recording(scans[cls])
        _run(argv)
        for cls in classes:
            cls.scan = scans[cls]
        whole, expected = _run(argv)
        for cls in classes:
            cls.scan = replay
        free, got = _run(argv)
    finally:  # the scanners as they were, for whoever imported this
        for cls in classes:
            cls.scan = scans[cls]
    print(json.dumps({"whole_s": round(whole, 3), "free_scan_s": round(free, 3), "replayed": replayed[0]}),
          file=sys.stderr)
    if missed:
        print("free_scanning: %d scans were not recorded (%s)" % (len(missed), ", ".join(sorted(set(missed)))),
              file=sys.stderr)
        return 3
    if got != expected:
        print("free_scanning: the replayed run printed other output than the whole run", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
