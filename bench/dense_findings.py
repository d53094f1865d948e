"""A document dense with findings (issue 18): the line
``text http://example.com/עבר%zz and more prose here`` four times a line,
repeated to the size asked for.  1 MB holds 37,032 findings (two a
reference: the bad escape, and the path segment mixing right-to-left and
left-to-right characters).

    python bench/dense_findings.py OUT.md [MEGABYTES]   (default 1)
"""
from __future__ import annotations

import sys
from pathlib import Path

PIECE = "text http://example.com/עבר%zz and more prose here"
LINE = " ".join([PIECE] * 4) + "\n"
MB = 1_000_000  # as the size limit counts them (max-file-size: 10 MB is 10,000,000 bytes)


def dense_text(megabytes: float) -> str:
    """Whole lines of :data:`LINE`, as many as fit in ``megabytes`` MB (10**6 bytes) of UTF-8."""
    size = len(LINE.encode("utf-8"))
    return LINE * max(1, int(megabytes * MB) // size)


def write_dense(path: Path, megabytes: float) -> int:
    """Write the document; returns its size in bytes."""
    data = dense_text(megabytes).encode("utf-8")
    path.write_bytes(data)
    return len(data)


def main(argv: list) -> int:
    if not argv or len(argv) > 2:
        print(__doc__, file=sys.stderr)
        return 2
    size = write_dense(Path(argv[0]), float(argv[1]) if len(argv) > 1 else 1.0)
    print("%s: %d bytes" % (argv[0], size))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
