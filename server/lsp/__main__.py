"""``python -m irilint.lsp [--stdio | --tcp HOST:PORT]``: run the language server."""
from __future__ import annotations

import argparse
import sys
from typing import List, Optional


def run(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m irilint.lsp",
                                     description="The irilint language server.")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default)")
    mode.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP address instead")
    args = parser.parse_args(argv)
    from .server import main

    return main(tcp=args.tcp)


if __name__ == "__main__":
    sys.exit(run())
