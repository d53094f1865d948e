"""``irilint report`` on the command line: collect, render, write."""
from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from irilint.report_args import add_arguments

from .collect import collect
from .html import render_html
from .markdown import render_markdown
from .model import plural



def _format_for(args: argparse.Namespace) -> str:
    if args.format:
        return args.format
    out = getattr(args, "output", None) or ""
    return "markdown" if out.lower().endswith((".md", ".markdown")) else "html"


def _write(path: Optional[str], text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    if not path or path == "-":
        buf = getattr(sys.stdout, "buffer", None)
        if buf is not None:
            sys.stdout.flush()
            buf.write(data)
            buf.flush()
        else:  # pragma: no cover - a replaced sys.stdout
            sys.stdout.write(text)
        return
    from irilint.fileio import write_file_atomic

    # a device or a pipe is written into; a file replaced whole, as --output-file does
    write_file_atomic(path, data)


def run(args: argparse.Namespace) -> int:
    from irilint import config

    paths = list(args.paths) or ["."]
    if "-" in paths:
        print("irilint: error: report reads files and directories, not stdin", file=sys.stderr)
        return 2
    try:
        data = collect(paths, select=args.select, ignore=args.ignore,
                       extend_select=getattr(args, "extend_select", None), config=args.config,
                       jobs=getattr(args, "jobs", 0), no_cache=getattr(args, "no_cache", False),
                       follow_symlinks=getattr(args, "follow_symlinks", False))
    except config.ConfigError as exc:
        print("irilint: error: %s" % exc, file=sys.stderr)
        return 2
    except OSError as exc:
        print("irilint: error: %s: %s" % (getattr(exc, "filename", None) or args.config,
                                          exc.strerror or exc), file=sys.stderr)
        return 2
    fmt = _format_for(args)
    text = render_markdown(data) if fmt == "markdown" else render_html(data)
    try:
        _write(args.output, text)
    except OSError as exc:
        print("irilint: error: cannot write %s: %s" % (args.output, exc.strerror or exc), file=sys.stderr)
        return 2
    for f in data.files:
        if f.error:
            print("irilint: error: %s" % f.error, file=sys.stderr)
        elif f.skipped:
            print("irilint: skipped %s" % f.skipped, file=sys.stderr)
    if args.output and args.output != "-":
        print("irilint: wrote %s (%s, %s)" % (args.output, fmt, plural(data.total, "finding")), file=sys.stderr)
    return 2 if data.errors else 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``irilint report`` on its own (the same options as the subcommand)."""
    parser = argparse.ArgumentParser(prog="irilint report", description="Write a review report of the IRIs "
                                     "in files or directories (HTML or Markdown).")
    add_arguments(parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return run(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
