"""Where the CLI's time goes, per file format: reading, scanning, rules.

In one process, over a folder (the corpus by default), every file is read
with ``read_document``, scanned by its scanner, and checked by the engine
with the default rules (which scans again). CPU seconds are summed per
extension, so the table shows which scanner and which part of the work a
speed-up must come from. Also shown: the rate of scanning alone, the bound
the issue asks ``check`` to come close to.

    python bench/by_format.py [FOLDER] [--top 12]
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import time


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?",
                        default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus"))
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args(argv)

    from irilint.engine import Engine
    from irilint.fileio import DocumentError, read_document
    from irilint.scanners import scanner_for

    engine = Engine()
    read_s: collections.Counter = collections.Counter()
    scan_s: collections.Counter = collections.Counter()
    check_s: collections.Counter = collections.Counter()
    chars: collections.Counter = collections.Counter()
    cands: collections.Counter = collections.Counter()
    files: collections.Counter = collections.Counter()
    clock = time.process_time
    for folder, _dirs, names in os.walk(args.folder):
        for name in names:
            path = os.path.join(folder, name)
            ext = name.rsplit(".", 1)[-1].lower() if "." in name else "(none)"
            t0 = clock()
            try:
                doc = read_document(path)
            except DocumentError:
                continue
            t1 = clock()
            scanner = scanner_for(path=path)
            found = list(scanner.scan(doc.text))  # a generator: taken to its end
            t2 = clock()
            engine.check_text(doc.text, path=path, scanner=scanner)
            t3 = clock()
            read_s[ext] += t1 - t0
            scan_s[ext] += t2 - t1
            check_s[ext] += t3 - t2
            chars[ext] += len(doc.text)
            cands[ext] += len(found)
            files[ext] += 1
    if not files:
        print("no files under %s" % args.folder, file=sys.stderr)
        return 2
    print("| format | files | MB | candidates | read s | scan s | check s (scan + rules) | scan MB/s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for ext, size in chars.most_common(args.top):
        print("| %s | %d | %.1f | %d | %.2f | %.2f | %.2f | %.0f |" % (
            ext, files[ext], size / 1e6, cands[ext], read_s[ext], scan_s[ext], check_s[ext],
            size / 1e6 / max(scan_s[ext], 1e-9)))
    total = sum(chars.values()) / 1e6
    r, s, c = sum(read_s.values()), sum(scan_s.values()), sum(check_s.values())
    print("| all | %d | %.1f | %d | %.2f | %.2f | %.2f | %.0f |" % (
        sum(files.values()), total, sum(cands.values()), r, s, c, total / max(s, 1e-9)))
    print()
    print("read + check: %.2f CPU s = %.1f MB/s; read + scan alone: %.2f s = %.1f MB/s "
          "(rules add %.0f%% to scanning)" % (r + c, total / (r + c), r + s, total / (r + s),
                                              100.0 * (c - s) / (r + s)))
    print("command: python bench/by_format.py %s" % args.folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
