"""The command line of ``irilint report``: its arguments, apart from the
report's code, so that every other command (``check`` above all) starts
without importing it."""
from __future__ import annotations

import argparse
from typing import Any

from irilint.project import comma_list

FORMATS = ("html", "markdown")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: .)")
    p.add_argument("--output", "-o", metavar="FILE",
                   help="write the report to FILE (default, or '-': standard output)")
    p.add_argument("--format", choices=FORMATS, default=None,
                   help="html (one self-contained page; the default) or markdown (a pull-request "
                        "comment; the default when --output ends in .md)")
    p.add_argument("--select", type=comma_list, action="extend", metavar="RULES",
                   help="only these rules (names, codes, code prefixes or families; comma-separated)")
    p.add_argument("--extend-select", type=comma_list, action="extend", metavar="RULES",
                   help="rules to add to the selection")
    p.add_argument("--ignore", type=comma_list, action="extend", metavar="RULES", help="rules to leave out")
    p.add_argument("--config", metavar="FILE", help="use this config file instead of searching for one")
    p.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                   help="worker processes (default: all cores; 1: no workers)")
    p.add_argument("--no-cache", action="store_true",
                   help="accepted as 'check' accepts it; the report never uses the result cache, as it "
                        "reads each file (once) to show its text")
    p.add_argument("--follow-symlinks", action="store_true",
                   help="follow symbolic links that lead outside the given paths (by default such a "
                        "link is skipped with a note)")


def add_subcommand(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``report`` on the ``irilint`` command's subparsers."""
    p = subparsers.add_parser(
        "report", help="write a review report of the IRIs in files or directories (HTML or Markdown)",
        description="Write a review report: totals, every finding with its hidden characters made "
                    "visible, and the hosts and IRIs that look alike across the tree.")
    add_arguments(p)
    return p
