"""Subcommands other than ``convert`` (filled in as they are built)."""
from __future__ import annotations

import argparse


def add_subcommands(sub) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    raise SystemExit(2)
