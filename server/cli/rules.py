"""``irilint rules`` (every rule) and ``irilint explain`` (a rule's documentation)."""
from __future__ import annotations

import argparse
import sys
from typing import Any, Dict


def add_parsers(sub: Any) -> None:
    rules = sub.add_parser("rules", help="list every rule")
    rules.add_argument("--format", choices=("text", "json"), default="text")

    explain = sub.add_parser("explain", help="print a rule's documentation")
    explain.add_argument("rule", metavar="NAME|CODE")


def _rule_obj(r: Any) -> Dict[str, Any]:
    return {"name": r.name, "code": r.code, "family": r.family, "severity": r.severity.label,
            "enabled": r.enabled, "fix": r.fix, "fix_in_data": r.fix_in_data, "summary": r.summary}


#: Where a rule's fixes are unsafe whatever it says (Rule.fix_in_data).
DATA_PLACES = ("in code outside comments and docstrings, in JSON/YAML/TOML values, "
               "in Turtle terms and literals")


def _fix_label(r: Any) -> str:
    """The rule's fix safety, "*" when it is less safe in data."""
    return r.fix + ("*" if r.fix_in_data != r.fix else "")


def run_rules(args: argparse.Namespace) -> int:
    from irilint.rules.registry import all_rules

    rules = all_rules()
    if args.format == "json":
        import json

        print(json.dumps([_rule_obj(r) for r in rules], indent=2, ensure_ascii=False))
        return 0
    width = max(len(r.name) for r in rules)
    for r in rules:
        print("%s  %-*s  %-16s %-7s %-3s fix:%-10s %s" % (
            r.code, width, r.name, r.family, r.severity.label, "on" if r.enabled else "off",
            _fix_label(r), r.summary))
    if any(r.fix_in_data != r.fix for r in rules):
        print("* unsafe, or only sometimes safe, in data: %s" % DATA_PLACES)
    return 0


def run_explain(args: argparse.Namespace) -> int:
    from irilint.rules.registry import get_rule

    r = get_rule(args.rule)
    if r is None:
        print("irilint: error: no rule named %r (see 'irilint rules')" % args.rule, file=sys.stderr)
        return 2
    print("# %s (%s)\n" % (r.name, r.code))
    fix = r.fix
    if r.fix_in_data != r.fix:
        fix += " (%s in data: %s)" % (r.fix_in_data, DATA_PLACES)
    print("Family: %s. Default severity: %s. Enabled by default: %s. Fix: %s.\n" % (
        r.family, r.severity.label, "yes" if r.enabled else "no", fix))
    print(r.doc.rstrip())
    return 0
