#!/usr/bin/env python3
"""irilint's CLI with every scanner finding nothing: what a run costs before
its first reference (the walk, reading and decoding each file, finding its
scanner, setting up its check, the cache and the output), for the ``floor``
row of bench/speed.py.  Whatever the scanners and rules cost, a run of the
whole CLI cannot take less than this.

    python bench/no_candidates.py check --jobs 1 --no-cache -q bench/real-corpus

The arguments are irilint's.  Every scanner module is imported up front
(about 20 ms), as a run over many kinds of files does anyway.  The cache is
one of its own, removed at the end: the empty results must never be read
by a real run (a cache key does not know the scanners were replaced).
"""
from __future__ import annotations

import os
import sys
import tempfile
from typing import Iterator, List, Optional


def _nothing(self: object, text: str) -> Iterator[object]:
    return iter(())


def main(argv: Optional[List[str]] = None) -> int:
    from irilint import scanners
    from irilint.cli import main as irilint_main

    for cls in scanners.SCANNERS.values():
        cls.scan = _nothing  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory(prefix="irilint-no-candidates-") as cache:
        os.environ["IRILINT_CACHE_ROOT"] = cache
        return irilint_main(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
