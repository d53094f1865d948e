"""The ``irilint`` command line: one module per subcommand (``check``,
``rules`` and ``explain``, ``config``, ``convert``, ``server``; ``report``
is :mod:`irilint.report_args`), each parsing its arguments and printing
its results.  Deciding what to check and checking it is the project
layer's (:mod:`irilint.project`, :mod:`irilint.runner`).

Each subcommand imports what it needs when it runs, so ``irilint convert``
and ``irilint check`` never pay for the language server's imports.
"""
from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from .base import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, Parser, UsageError

__all__ = ["main", "EXIT_OK", "EXIT_FINDINGS", "EXIT_ERROR", "UsageError"]


def _build_parser() -> argparse.ArgumentParser:
    from .. import __version__
    from ..report_args import add_subcommand as add_report
    from . import check, config, convert, rules, server

    parser = Parser(
        prog="irilint",
        description="Find and check IRIs (RFC 3987) and URIs in documents.",
    )
    parser.add_argument("--version", action="version", version="irilint " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    convert.add_parser(sub)
    check.add_parser(sub)
    rules.add_parsers(sub)
    config.add_parser(sub)
    add_report(sub)
    server.add_parser(sub)
    return parser


def _run(args: argparse.Namespace) -> int:
    cmd = args.command
    if cmd == "convert":
        from . import convert

        return convert.run(args)
    if cmd == "check":
        from . import check

        return check.run(args)
    if cmd == "rules":
        from . import rules

        return rules.run_rules(args)
    if cmd == "explain":
        from . import rules

        return rules.run_explain(args)
    if cmd == "config":
        from . import config

        return config.run(args)
    if cmd == "report":
        from .. import report

        return report.run(args)
    if cmd == "server":
        from . import server

        return server.run(args)
    raise AssertionError(cmd)


def main(argv: Optional[Sequence[str]] = None) -> int:
    try:
        parser = _build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help(sys.stderr)
            return EXIT_ERROR
        return _run(args)
    except UsageError as exc:
        print("irilint: error: %s" % exc, file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug: say so clearly, never a bare traceback
        import os
        import traceback

        if os.environ.get("IRILINT_DEBUG"):
            traceback.print_exc()
        print("irilint: internal error: %s: %s (set IRILINT_DEBUG=1 for the traceback)"
              % (exc.__class__.__name__, exc), file=sys.stderr)
        return EXIT_ERROR
