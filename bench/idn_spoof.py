"""How well irilint tells spoofed internationalized host names from real ones.

Usage::

    python bench/idn_spoof.py                  # the table
    python bench/idn_spoof.py --list fn        # spoofs irilint misses, with its findings
    python bench/idn_spoof.py --list fp        # legitimate hosts irilint flags
    python bench/idn_spoof.py --well-known-domains --list fp   # ... with well-known-domains = true
    python bench/idn_spoof.py --json out.json  # every verdict, for tools
    python bench/idn_spoof.py --form punycode  # the hosts written as xn-- labels

The hosts come from two committed files next to this script (the bench runs
offline):

* ``data/chromium_idn_cases.tsv``: the verdicts of Chromium's IDN spoof
  checker tests (shown as Unicode = legitimate, kept in Punycode = spoof),
  extracted by ``extract_chromium_cases.py``;
* ``data/legit_idns.tsv``: real internationalized names (IDN test domains,
  IDN top-level domains, institutions under their own names), all legitimate.

irilint's verdict on a host: lint a Markdown document holding
``http://HOST/`` with default settings, three times: once as shipped
(``well-known-domains`` off, its default), once with ``protected-domains``
set to Chromium's TEST list of top domains
(``data/chromium_test_domains.list``, extracted by
``extract_chromium_cases.py --top-domains``), the very list Chromium's
test verdicts on look-alikes of top domains were made against, and once
with ``well-known-domains = true`` (irilint's copy of Chromium's real list
of top domains, ``irilint.well_known_domains``).  The three tables are
printed, each under a heading that says which it is; ``--list`` and
``--json`` describe the run with the test list, unless
``--without-top-domains`` (the run as shipped) or ``--well-known-domains``
(the run with the well-known domains); the host is *flagged* when any
finding comes from the lookalike family or the host family, except IRI503
(the hint that a Punycode label reads better as Unicode, which says the
opposite of "spoof").  The irilint used is whichever the running Python
imports, so the rule workers can run this file with their own environment.

ICU's verdict, in the same run (pyicu, ``import icu``), set up as a library
user following UTS #39 would: a host is flagged when

* UTS #46 processing (non-transitional, STD3 rules, Bidi, CONTEXTJ and
  CONTEXTO checks) reports an error, or
* for any label, ``SpoofChecker.check`` fails with restriction level
  HIGHLY_RESTRICTIVE, allowed characters = UTS #39 Recommended + Inclusion
  sets (CHAR_LIMIT), and the INVISIBLE and MIXED_NUMBERS checks, or
* a non-ASCII label's confusable skeleton is all ASCII letters, digits and
  hyphens: the whole label reads as a Latin name (a whole-script or
  mixed-script look-alike of some ASCII label).  The top-level label is not
  held to this: it is a fixed entry of the root zone (``срб`` reads as
  ``cp6`` but is Serbia's).
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time
from collections import OrderedDict
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
CHROMIUM_CASES = os.path.join(DATA, "chromium_idn_cases.tsv")
LEGIT_IDNS = os.path.join(DATA, "legit_idns.tsv")
CHROMIUM_TOP_DOMAINS = os.path.join(DATA, "chromium_test_domains.list")
FIREFOX_CASES = os.path.join(DATA, "firefox_idn_cases.tsv")

#: Families whose findings count as "flagged"; codes that never do.
FLAG_FAMILIES = ("lookalike", "host")
NOT_A_FLAG = frozenset({"IRI503"})

#: The category of every host of the legit list.
LEGIT_LIST_CATEGORY = "real-idn"


class BenchError(Exception):
    """A data file is missing or malformed (the message names it)."""


class Case:
    __slots__ = ("host", "ascii", "spoof", "category", "source", "detail", "irilint", "findings",
                 "icu", "icu_reasons")

    def __init__(self, host: str, spoof: bool, category: str, source: str, detail: str = "",
                 ascii_host: Optional[str] = None):
        self.host = host
        #: the Punycode form (Chromium's test input, or each label encoded)
        self.ascii = ascii_host if ascii_host is not None else to_punycode(host)
        self.spoof = spoof
        self.category = category
        self.source = source
        self.detail = detail
        self.irilint = False
        self.findings: List[str] = []
        self.icu = False
        self.icu_reasons: List[str] = []


def to_punycode(host: str) -> str:
    """``host`` with every non-ASCII label written as ``xn--`` + RFC 3492
    Punycode (the hosts are NFC and lower case already, so no mapping)."""
    return ".".join(label if label.isascii() else "xn--" + label.encode("punycode").decode("ascii")
                    for label in host.split("."))


def read_tsv(path: str, required: Sequence[str]) -> List[Dict[str, str]]:
    """The rows of a TSV file with a header line; ``#`` lines are comments."""
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
    except OSError as exc:
        raise BenchError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise BenchError(f"{path}: not UTF-8: {exc}") from None
    header: Optional[List[str]] = None
    rows = []
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if header is None:
            header = cells
            missing = [c for c in required if c not in header]
            if missing:
                raise BenchError(f"{path}:{n}: header lacks column(s) {', '.join(missing)}")
            continue
        if len(cells) != len(header):
            raise BenchError(f"{path}:{n}: {len(cells)} cells, the header has {len(header)}")
        row = dict(zip(header, cells))
        row["_line"] = str(n)
        rows.append(row)
    if header is None:
        raise BenchError(f"{path}: no header line")
    return rows


def load_cases(chromium: str = CHROMIUM_CASES, legit: str = LEGIT_IDNS,
               legit_by_script: bool = False) -> List[Case]:
    """The cases of both files; with ``legit_by_script`` the legitimate list
    is split into one category per script (``real-idn/Cyrillic``, ...)."""
    cases = []
    for row in read_tsv(chromium, ("host", "verdict", "category")):
        if row["verdict"] not in ("legit", "spoof"):
            raise BenchError(f"{chromium}:{row['_line']}: verdict {row['verdict']!r} is not legit/spoof")
        cases.append(Case(row["host"], row["verdict"] == "spoof", row["category"], "chromium",
                          row.get("group", ""), row.get("ascii") or None))
    for row in read_tsv(legit, ("host", "script", "source")):
        category = (f"{LEGIT_LIST_CATEGORY}/{row['script']}" if legit_by_script
                    else LEGIT_LIST_CATEGORY)
        cases.append(Case(row["host"], False, category, "legit-list",
                          f"{row['script']}; {row['source']}"))
    return cases


def load_firefox_cases(path: str = FIREFOX_CASES) -> List[Case]:
    """Firefox's verdicts under its "high" restriction profile (UTS #39
    Highly Restrictive), one category per group of its test file."""
    cases = []
    for row in read_tsv(path, ("ascii", "host", "verdict", "group")):
        if row["verdict"] not in ("legit", "spoof"):
            raise BenchError(f"{path}:{row['_line']}: verdict {row['verdict']!r} is not legit/spoof")
        cases.append(Case(row["host"], row["verdict"] == "spoof", row["group"], "firefox",
                          "moderate profile: " + row.get("firefox_moderate", "?"), row["ascii"]))
    return cases


# -- irilint -----------------------------------------------------------------

class IrilintJudge:
    """irilint's verdict on a host, through its Python API."""

    def __init__(self, protected_domains: Sequence[str] = (), well_known_domains: bool = False) -> None:
        try:
            from irilint.config import Settings
            from irilint.engine import Engine
            from irilint.scanners import scanner_for
        except ImportError as exc:
            raise BenchError(f"cannot import irilint in {sys.executable}: {exc}") from None
        self.engine = Engine()
        self.settings = Settings(protected_domains=tuple(protected_domains),
                                 well_known_domains=well_known_domains)
        self.scanner = scanner_for(path="links.md")
        import irilint

        self.where = os.path.dirname(os.path.abspath(irilint.__file__))

    def findings(self, host: str) -> List[Tuple[str, str, str, str]]:
        """(code, family, name, message) of every finding on ``http://HOST/``."""
        text = f"http://{host}/\n"
        result = self.engine.check_text(text, path="links.md", settings=self.settings,
                                        scanner=self.scanner, run_state={})
        if result.errors:
            raise BenchError(f"irilint failed on {host!r}: {result.errors}")
        return [(f.rule.code, f.rule.family, f.rule.name, f.message) for f in result.findings]

    def scanned_as(self, host: str) -> List[str]:
        """The references the Markdown scanner finds in the document; the
        verdict is only about HOST when this is exactly ``http://HOST/``."""
        text = f"http://{host}/\n"
        return [text[c.start:c.end] for c in self.scanner.scan(text)]

    def judge(self, case: Case, host: str) -> None:
        found = self.findings(host)
        case.findings = [f"{code} {name}: {msg}" for code, _fam, name, msg in found]
        scanned = self.scanned_as(host)
        if scanned != [f"http://{host}/"]:
            case.findings.append(f"(the Markdown scanner read the link as {scanned!r})")
        case.irilint = any(fam in FLAG_FAMILIES and code not in NOT_A_FLAG
                           for code, fam, _name, _msg in found)


# -- ICU ---------------------------------------------------------------------

class IcuJudge:
    """ICU's verdict on a host (see the module docstring for the setup)."""

    def __init__(self) -> None:
        try:
            import icu  # noqa: F401  (pyicu / pyicu-wheels)
        except ImportError as exc:
            raise BenchError(
                f"cannot import icu (PyICU) in {sys.executable}: {exc}; "
                "install pyicu-wheels (the irilint [test] extra has it)") from None
        self.icu = icu
        self.version = icu.ICU_VERSION
        checker = icu.SpoofChecker()
        checker.setRestrictionLevel(icu.URestrictionLevel.HIGHLY_RESTRICTIVE)
        # An empty set filled from both: the sets ICU returns are frozen, and
        # so is a copy of them (adding to it would do nothing).
        allowed = icu.UnicodeSet()
        allowed.addAll(icu.SpoofChecker.getRecommendedUnicodeSet())
        allowed.addAll(icu.SpoofChecker.getInclusionUnicodeSet())
        checker.setAllowedUnicodeSet(allowed)
        checks = icu.USpoofChecks
        checker.setChecks(checks.RESTRICTION_LEVEL | checks.CHAR_LIMIT | checks.INVISIBLE
                          | checks.MIXED_NUMBERS)
        self.checker = checker
        opts = icu.IDNA
        self.idna = icu.IDNA(opts.USE_STD3_RULES | opts.CHECK_BIDI | opts.CHECK_CONTEXTJ
                             | opts.CHECK_CONTEXT0 | opts.CHECK_NONTRANSITIONAL_TO_ASCII
                             | opts.CHECK_NONTRANSITIONAL_TO_UNICODE)
        self.error_names = {getattr(icu.IDNAInfo, n): n[len("ERROR_"):].lower()
                            for n in dir(icu.IDNAInfo) if n.startswith("ERROR_")}
        self.check_names = {getattr(checks, n): n.lower() for n in
                            ("RESTRICTION_LEVEL", "CHAR_LIMIT", "INVISIBLE", "MIXED_NUMBERS")}

    def reasons(self, host: str) -> List[str]:
        icu = self.icu
        out = []
        info = icu.IDNAInfo()
        self.idna.nameToUnicode(host, info)
        errors = info.errors()
        if errors:
            out.append("uts46: " + ",".join(name for bit, name in sorted(self.error_names.items())
                                            if errors & bit))
        labels = host.split(".")
        for n, label in enumerate(labels):
            if label.isascii() and not label.lower().startswith("xn--"):
                continue
            if label.lower().startswith("xn--"):
                sub = icu.IDNAInfo()
                label = str(self.idna.labelToUnicode(label, sub))
            try:
                failed = self.checker.check(label)
            except icu.ICUError as exc:
                out.append(f"spoofcheck error on {label!r}: {exc}")
                continue
            if failed:
                names = [n for bit, n in self.check_names.items() if failed & bit]
                out.append(f"{'+'.join(names) or hex(failed)} on {label!r}")
            if n == len(labels) - 1:
                continue  # a top-level domain is a fixed entry of the root zone
            skeleton = str(self.checker.getSkeleton(0, label))
            if not label.isascii() and all(c.isascii() and (c.isalnum() or c == "-") for c in skeleton):
                out.append(f"skeleton of {label!r} is the ASCII {skeleton!r}")
        return out

    def judge(self, case: Case, host: str) -> None:
        case.icu_reasons = self.reasons(host)
        case.icu = bool(case.icu_reasons)


# -- scoring -----------------------------------------------------------------

def confusion(cases: Iterable[Case], attr: str) -> Dict[str, int]:
    c = {"tp": 0, "fp": 0, "fn": 0, "tn": 0}
    for case in cases:
        flagged = getattr(case, attr)
        key = ("tp" if flagged else "fn") if case.spoof else ("fp" if flagged else "tn")
        c[key] += 1
    p_den, r_den = c["tp"] + c["fp"], c["tp"] + c["fn"]
    c["precision"] = round(c["tp"] / p_den, 3) if p_den else None
    c["recall"] = round(c["tp"] / r_den, 3) if r_den else None
    return c


def by_category(cases: List[Case]) -> "OrderedDict[str, List[Case]]":
    groups: "OrderedDict[str, List[Case]]" = OrderedDict()
    for case in sorted(cases, key=lambda c: c.category):
        groups.setdefault(case.category, []).append(case)
    return groups


def _fmt(x: Optional[float]) -> str:
    return "  -  " if x is None else f"{x:.3f}"


def table(cases: List[Case]) -> str:
    width = max([26] + [len(c.category) + 2 for c in cases])
    head = (f"{'category':<{width}}{'n':>5} | {'irilint TP  FP  FN  TN':>24} {'P':>6} {'R':>6}"
            f" | {'ICU TP  FP  FN  TN':>20} {'P':>6} {'R':>6}")
    lines = [head, "-" * len(head)]
    rows = list(by_category(cases).items()) + [("OVERALL", cases)]
    for i, (name, group) in enumerate(rows):
        if name == "OVERALL":
            lines.append("-" * len(head))
        a, b = confusion(group, "irilint"), confusion(group, "icu")
        lines.append(
            f"{name:<{width}}{len(group):>5} | {a['tp']:>11} {a['fp']:>3} {a['fn']:>3} {a['tn']:>3}"
            f" {_fmt(a['precision']):>6} {_fmt(a['recall']):>6}"
            f" | {b['tp']:>7} {b['fp']:>3} {b['fn']:>3} {b['tn']:>3}"
            f" {_fmt(b['precision']):>6} {_fmt(b['recall']):>6}")
    return "\n".join(lines)


def listing(cases: List[Case], which: str, tool: str) -> str:
    attr = "irilint" if tool == "irilint" else "icu"
    picked = [c for c in cases
              if (which == "fn" and c.spoof and not getattr(c, attr))
              or (which == "fp" and not c.spoof and getattr(c, attr))]
    out = [f"# {tool} {which.upper()}: {len(picked)}"]
    for c in sorted(picked, key=lambda c: (c.category, c.host)):
        out.append(f"{c.category}\t{c.host}\t{c.host.encode('unicode_escape').decode('ascii')}"
                   f"\t{c.ascii}\t[{c.source}: {c.detail}]")
        notes = c.findings if tool == "irilint" else c.icu_reasons
        for line in notes or ["(no finding)"]:
            out.append(f"    {line}")
    return "\n".join(out)


def read_domains(path: str) -> List[str]:
    """The domains of a list file: one a line, ``#`` lines are comments."""
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError as exc:
        raise BenchError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise BenchError(f"{path}: not UTF-8: {exc}") from None
    domains = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    if not domains:
        raise BenchError(f"{path}: no domains")
    return domains


def run(cases: List[Case], form: str = "unicode", protected_domains: Sequence[str] = (),
        well_known_domains: bool = False) -> Tuple[IrilintJudge, IcuJudge]:
    """Both verdicts on every case, its host written in ``form`` ("unicode"
    or "punycode"), irilint configured with ``protected_domains`` and
    ``well_known_domains``; the judges, for their versions."""
    iri, icu = IrilintJudge(protected_domains, well_known_domains), IcuJudge()
    for case in cases:
        host = case.host if form == "unicode" else case.ascii
        iri.judge(case, host)
        icu.judge(case, host)
    return iri, icu


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="irilint vs ICU on spoofed and legitimate IDN hosts")
    ap.add_argument("--list", choices=("fn", "fp"), action="append", default=[],
                    help="print irilint's missed spoofs (fn) or false alarms (fp) with its findings")
    ap.add_argument("--tool", choices=("irilint", "icu"), default="irilint",
                    help="whose misses --list prints (default irilint)")
    ap.add_argument("--category", action="append", default=[],
                    help="only cases of this category (repeatable)")
    ap.add_argument("--legit-by-script", action="store_true",
                    help="one table row per script of the legitimate list")
    ap.add_argument("--form", choices=("unicode", "punycode"), default="unicode",
                    help="write each host in the document as Unicode (default) or as Punycode")
    ap.add_argument("--json", metavar="FILE", help="write every verdict and the scores to FILE")
    ap.add_argument("--chromium-cases", default=CHROMIUM_CASES, help=argparse.SUPPRESS)
    ap.add_argument("--legit", default=LEGIT_IDNS, help=argparse.SUPPRESS)
    ap.add_argument("--top-domains", default=CHROMIUM_TOP_DOMAINS, help=argparse.SUPPRESS)
    ap.add_argument("--firefox-cases", default=FIREFOX_CASES, help=argparse.SUPPRESS)
    which_run = ap.add_mutually_exclusive_group()
    which_run.add_argument("--without-top-domains", action="store_true",
                           help="--list and --json describe the run without Chromium's test top domains")
    which_run.add_argument("--well-known-domains", action="store_true",
                           help="--list and --json describe the run with well-known-domains = true")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    try:
        cases = load_cases(args.chromium_cases, args.legit, args.legit_by_script)
        if args.category:
            known = {c.category for c in cases}
            unknown = [cat for cat in args.category
                       if not any(k == cat or k.startswith(cat + "/") for k in known)]
            if unknown:
                raise BenchError(f"no case has the category {', '.join(unknown)}; the categories: "
                                 f"{', '.join(sorted(known))}")
            cases = [c for c in cases
                     if any(c.category == cat or c.category.startswith(cat + "/")
                            for cat in args.category)]
        top_domains = read_domains(args.top_domains)
        plain = [copy.copy(c) for c in cases]
        well_known = [copy.copy(c) for c in cases]
        iri_judge, icu_judge = run(plain, args.form)
        run(cases, args.form, top_domains)
        run(well_known, args.form, well_known_domains=True)
        firefox = load_firefox_cases(args.firefox_cases)
        run(firefox, args.form)
        from irilint.well_known_domains import DOMAIN_COUNT, SOURCE_REVISION
        judge_where, icu_version = iri_judge.where, icu_judge.version
    except BenchError as exc:
        print(f"idn_spoof: {exc}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - t0
    spoofs = sum(c.spoof for c in cases)
    print(f"irilint from {judge_where}; ICU {icu_version}; {len(cases)} hosts "
          f"({spoofs} spoof, {len(cases) - spoofs} legit) written as {args.form} in {elapsed:.1f}s")
    print()
    print("## irilint as shipped (no protected-domains; well-known-domains off, its default)")
    print(table(plain))
    print()
    print(f"## irilint with protected-domains = Chromium's test top domains ({len(top_domains)} domains, "
          f"{os.path.relpath(args.top_domains)}): the input Chromium's verdicts were made with")
    print(table(cases))
    print()
    print(f"## irilint with the well-known domains (`well-known-domains = true`: {DOMAIN_COUNT} "
          f"domains of Chromium's top-domain list, revision {SOURCE_REVISION[:12]}); "
          "no protected-domains")
    print(table(well_known))
    print()
    print(f"## Firefox's verdicts ({os.path.relpath(args.firefox_cases)}: its test_idn_urls.js, "
          f"each label under .com, {len(firefox)} hosts; spoof = kept in Punycode under the 'high' "
          "profile); irilint as shipped")
    print(table(firefox))
    protected = top_domains
    if args.without_top_domains:
        cases, protected = plain, []
    elif args.well_known_domains:
        cases, protected = well_known, []
    for which in args.list:
        print()
        print(listing(cases, which, args.tool))
    if args.json:
        payload = {
            "irilint": judge_where,
            "icu_version": icu_version,
            "form": args.form,
            "protected_domains": protected,
            "well_known_domains": bool(args.well_known_domains),
            "overall": {"irilint": confusion(cases, "irilint"), "icu": confusion(cases, "icu")},
            "categories": {name: {"irilint": confusion(g, "irilint"), "icu": confusion(g, "icu")}
                           for name, g in by_category(cases).items()},
            "cases": [{"host": c.host, "ascii": c.ascii, "spoof": c.spoof, "category": c.category, "source": c.source,
                       "detail": c.detail, "irilint": c.irilint, "findings": c.findings,
                       "icu": c.icu, "icu_reasons": c.icu_reasons} for c in cases],
        }
        try:
            with open(args.json, "w", encoding="utf-8") as fh:
                json.dump(payload, fh, ensure_ascii=False, indent=1)
        except OSError as exc:
            print(f"idn_spoof: cannot write {args.json}: {exc.strerror}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
