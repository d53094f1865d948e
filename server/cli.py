"""The ``irilint`` command line.

Each subcommand imports what it needs when it runs, so ``irilint convert``
and ``irilint check`` never pay for the language server's imports.
"""
from __future__ import annotations

import argparse
import sys
from typing import List, Optional, Sequence

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2


class UsageError(Exception):
    """A bad command line: exit 2 with the message."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> "None":  # type: ignore[override]
        self.print_usage(sys.stderr)
        raise UsageError(message)


def _build_parser() -> argparse.ArgumentParser:
    from . import __version__  # noqa: F401 (cheap: no heavy imports)

    parser = _Parser(
        prog="irilint",
        description="Find and check IRIs (RFC 3987) and URIs in documents.",
    )
    parser.add_argument("--version", action="version", version="irilint " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    conv = sub.add_parser("convert", help="convert IRIs to URIs (RFC 3987 s3.1) or URIs to IRIs (s3.2)")
    conv.add_argument("--to", choices=("uri", "iri"), required=True, help="the form to convert to")
    conv.add_argument("text", nargs="*", metavar="TEXT",
                      help="references to convert; '-' or none reads stdin, one per line")

    from . import cli_commands

    cli_commands.add_subcommands(sub)
    return parser


def _cmd_convert(args: argparse.Namespace) -> int:
    items: List[str] = list(args.text)
    if "-" in items and items != ["-"]:
        raise UsageError("'-' (stdin) cannot be mixed with other arguments")
    if args.to == "uri":
        from .convert import to_uri

        fn = to_uri
    else:
        fn = _safe_to_iri()
        if fn is None:
            return EXIT_ERROR
    out = sys.stdout
    if not items or items == ["-"]:
        for line in sys.stdin:
            # Only the line end is dropped: spaces inside are part of the text.
            out.write(fn(line.rstrip("\r\n")) + "\n")
        return EXIT_OK
    for item in items:
        out.write(fn(item) + "\n")
    return EXIT_OK


def _safe_to_iri():
    """URI -> IRI as ``convert --to iri`` does it: an A-label or escape run
    whose Unicode form a look-alike, bidi or host rule (as the configuration
    found from the working directory selects them) flags stays encoded, and
    stderr says why, one line per piece kept.  None (after saying why) when
    the configuration cannot be used."""
    import os

    from . import config
    from .engine import Engine
    from .rules.registry import is_selector
    from .scanners import is_scanner_name

    try:
        settings = config.settings_for(os.getcwd(), validate_selector=is_selector,
                                       validate_scanner=is_scanner_name)
    except config.ConfigError as exc:
        print("irilint: error: %s" % exc, file=sys.stderr)
        return None
    engine = Engine()

    def convert(uri: str) -> str:
        iri, kept = engine.safe_to_iri(uri, settings)
        for piece in kept:
            print("irilint: %s: %s" % (uri, piece.reason), file=sys.stderr)
        return iri

    return convert


def main(argv: Optional[Sequence[str]] = None) -> int:
    try:
        parser = _build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help(sys.stderr)
            return EXIT_ERROR
        if args.command == "convert":
            return _cmd_convert(args)
        from . import cli_commands

        return cli_commands.run(args)
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
