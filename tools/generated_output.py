"""The end every generator in tools/ shares: write the generated text, or
with ``--check`` say whether the committed file is up to date.

A generator does ``sys.path`` insertion of its own folder first, so that
it imports this module both when run as a script and when a test loads it
by path.
"""
from __future__ import annotations

import argparse
import difflib
import os
import sys
from typing import Optional


def add_output_arguments(ap: argparse.ArgumentParser, default: str, *, stdout: bool = True) -> None:
    """``-o/--output`` (``-`` for stdout when ``stdout``) and ``--check``."""
    ap.add_argument("-o", "--output", default=default,
                    help="output file%s (default: %%(default)s)" % (", '-' for stdout" if stdout else ""))
    ap.add_argument("--check", action="store_true", help="do not write; exit 1 if the output file differs")


def write_or_check(text: str, output: str, check: bool, regenerate: str) -> int:
    """Write ``text`` to ``output`` (``-``: stdout) unless it is there
    already, or with ``check`` compare only: 0 when up to date, else the
    difference on stdout, ``regenerate`` (the command that mends it) on
    stderr, and 1."""
    try:
        with open(output, encoding="utf-8", newline="") as f:
            current: Optional[str] = f.read()
    except FileNotFoundError:
        current = None
    if check:
        if current == text:
            return 0
        sys.stdout.writelines(difflib.unified_diff(
            (current or "").splitlines(True), text.splitlines(True), output, "regenerated", n=1))
        print("%s is out of date: run %s" % (os.path.relpath(output), regenerate), file=sys.stderr)
        return 1
    if output == "-":
        sys.stdout.write(text)
        return 0
    if current != text:
        os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
        with open(output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print("wrote %s" % os.path.relpath(output), file=sys.stderr)
    return 0
