"""Extract a small seed set of references from a corpus of real documents.

    python tests/fuzz/extract_seeds.py bench/real-corpus > tests/fuzz/seeds/references.txt

Every file is scanned with the scanner its name selects; the references
found are grouped by what makes them interesting to the fuzz targets (non-ASCII,
percent-encoding, Punycode, bidi or invisible characters, IP literals,
character references, plain), and a few of each group are kept, in sorted
order so that the output is the same on every run.  Only references are kept,
one a line, never the documents.
"""
from __future__ import annotations

import hashlib
import os
import re
import sys

from irilint.fileio import DocumentError, read_document
from irilint.scanners import scanner_for

_GROUPS = [
    ("bidi-or-invisible", re.compile("[\u200b-\u200f\u202a-\u202e\u2066-\u2069\u00ad\ufeff]|%E2%80%[8A][B-F]", re.I)),
    ("punycode", re.compile("xn--", re.I)),
    ("ip-literal", re.compile(r"//[^/]*\[")),
    ("percent", re.compile("%")),
    ("non-ascii-host", re.compile(r"//[^/?#]*[^\x00-\x7f]")),
    ("non-ascii", re.compile(r"[^\x00-\x7f]")),
    ("query-or-fragment", re.compile(r"[?#]")),
    ("plain", re.compile("")),
]
PER_GROUP = 60


def _group(value: str) -> str:
    for name, rx in _GROUPS:
        if rx.search(value):
            return name
    return "plain"


def references(root: str):
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if name.startswith("findings."):
                continue  # the corpus's own report of its findings, not a document
            path = os.path.join(folder, name)
            scanner = scanner_for(path)
            if scanner is None:
                continue
            try:
                doc = read_document(path, max_size=1 << 20, digest=False)
            except DocumentError:
                continue
            for c in scanner.scan(doc.text):
                if 0 < len(c.value) <= 300 and "\n" not in c.value and "\r" not in c.value:
                    yield c.value


def main(argv) -> int:
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: extract_seeds.py CORPUS_FOLDER", file=sys.stderr)
        return 2
    groups = {}
    for value in references(argv[1]):
        groups.setdefault(_group(value), set()).add(value)
    out = []
    for name, _ in _GROUPS:
        # a stable, spread-out choice: the smallest hashes, not the first names
        chosen = sorted(groups.get(name, ()), key=lambda v: hashlib.sha256(v.encode("utf-8", "surrogatepass")).digest())
        out.extend(sorted(chosen[:PER_GROUP]))
    for value in out:
        sys.stdout.write(value.encode("utf-8", "backslashreplace").decode("utf-8") + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
