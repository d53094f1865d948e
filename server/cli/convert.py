"""``irilint convert``: IRIs to URIs (RFC 3987 s3.1) or URIs to IRIs (s3.2)."""
from __future__ import annotations

import argparse
import sys
from typing import Any, List

from .base import EXIT_ERROR, EXIT_OK, UsageError


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("convert", help="convert IRIs to URIs (RFC 3987 s3.1) or URIs to IRIs (s3.2)")
    p.add_argument("--to", choices=("uri", "iri"), required=True, help="the form to convert to")
    p.add_argument("text", nargs="*", metavar="TEXT",
                   help="references to convert; '-' or none reads stdin, one per line")
    return p


def run(args: argparse.Namespace) -> int:
    items: List[str] = list(args.text)
    if "-" in items and items != ["-"]:
        raise UsageError("'-' (stdin) cannot be mixed with other arguments")
    if args.to == "uri":
        from ..convert import to_uri

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

    from .. import config
    from ..engine import Engine
    from ..project import validators

    try:
        is_selector, is_scanner_name = validators()
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
