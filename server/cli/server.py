"""``irilint server``: the language server (stdio or TCP)."""
from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("server", help="start the language server (stdio)")
    p.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    p.add_argument("--stdio", action="store_true", help="use stdio (the default)")
    return p


def run(args: argparse.Namespace) -> int:
    from ..lsp.server import main as server_main

    return server_main(tcp=args.tcp)
