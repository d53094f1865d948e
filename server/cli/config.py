"""``irilint config``: the effective settings for a path, as TOML or JSON."""
from __future__ import annotations

import argparse
import sys
from typing import Any, Dict

from ..project import validators


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("config", help="print the effective settings for a path")
    p.add_argument("path", nargs="?", default=".", metavar="PATH")
    p.add_argument("--format", choices=("toml", "json"), default="toml")
    return p


def run(args: argparse.Namespace) -> int:
    from .. import config

    vs, vsc = validators()
    try:
        settings = config.settings_for(args.path, validate_selector=vs, validate_scanner=vsc)
    except config.ConfigError as exc:
        print("irilint: error: %s" % exc, file=sys.stderr)
        return 2
    data = config.settings_to_dict(settings)
    source = data.pop("source", None)
    if args.format == "json":
        import json

        print(json.dumps({"source": source, "settings": data}, indent=2, ensure_ascii=False))
        return 0
    print("# effective settings for %s" % args.path)
    print("# from: %s" % (source or "built-in defaults (no config file found)"))
    print(_toml(data))
    return 0


def _toml_value(v: Any) -> str:
    import json

    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(v)


def _toml(data: Dict[str, Any]) -> str:
    lines = []
    tables = []
    for k, v in data.items():
        if isinstance(v, dict):
            tables.append((k, v))
        else:
            lines.append("%s = %s" % (k, _toml_value(v)))
    for k, v in tables:
        lines.append("")
        lines.append("[%s]" % k)
        for kk, vv in v.items():
            lines.append("%s = %s" % (_toml_value(kk), _toml_value(vv)))
    return "\n".join(lines)
