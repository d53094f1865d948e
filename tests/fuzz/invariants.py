"""The invariants the fuzz suites check, shared by the hypothesis tests and
the atheris harness.  Every check raises :class:`InvariantError` (an
``AssertionError``) with a message naming the broken invariant.

"Never crash, never lose a byte, never be fooled":

* no scanner, rule, fix, conversion or output function raises (rule
  crashes surface as ``CheckResult.errors``: that list must be empty);
* candidates keep the scanner contract (sorted, disjoint, inside the
  document, offset maps consistent);
* every finding span and every fix edit lies inside the document, and each
  fix edits only inside its reference (``ref_start <= start <= end <=
  ref_end``) -- except ``unused-suppression`` fixes, which edit the comment;
* safe fixes preserve the URI (``fuzz_strategies.uri_key``) of the reference
  they fix, and the reference is still found where it was;
* applying the safe fixes again and again reaches a fixed point within
  ``MAX_PASSES`` passes (and so do the unsafe ones);
* conversions never raise; ``to_uri`` gives ASCII and is idempotent.
"""
from __future__ import annotations

import os
import sys
from typing import Dict, List, Optional, Tuple

_HERE = os.path.dirname(os.path.abspath(__file__))
_TESTS = os.path.dirname(_HERE)
for _p in (_TESTS, _HERE):  # for iri_strategies when run as a script
    if _p not in sys.path:
        sys.path.insert(0, _p)

from irilint import convert, parse  # noqa: E402
from irilint.config import Settings  # noqa: E402
from irilint.engine import Engine  # noqa: E402
from irilint.fix_loop import fixes_to_apply  # noqa: E402
from irilint.fileio import apply_edits  # noqa: E402
from irilint.lines import LineIndex  # noqa: E402
from irilint.output import format_text, locate, to_json_obj  # noqa: E402
from irilint.scanners import get_scanner  # noqa: E402

from fuzz_strategies import uri_key  # noqa: E402

MAX_PASSES = 10

#: Every rule, with settings that let the list-driven rules fire too.
ALL_SETTINGS = Settings(select=("ALL",), protected_domains=("example.com", "paypal.com", "例え.jp"),
                        allowed_scripts=("Cyrillic",))

#: The document formats and code languages the fuzzers feed, with a file
#: name that selects each.
FORMAT_FILES: Dict[str, str] = {
    "text": "doc.txt", "markdown": "doc.md", "html": "doc.html", "xml": "doc.xml",
    "rst": "doc.rst", "json": "doc.json", "yaml": "doc.yaml", "toml": "doc.toml",
    "turtle": "doc.ttl", "python": "doc.py", "c": "doc.c", "shellscript": "doc.sh",
    "code": "doc.unknown-code",
}

_ENGINE = Engine()


class InvariantError(AssertionError):
    pass


def _fail(what: str, fmt: str, text: str, detail: str = "") -> None:
    raise InvariantError("%s [%s] %s\n  document: %r" % (what, fmt, detail, text[:500]))


def check_candidates(fmt: str, text: str) -> List:
    cands = list(get_scanner(fmt).scan(text))  # a scanner may yield them
    last = 0
    n = len(text)
    for c in cands:
        if not (0 <= c.start <= c.end <= n):
            _fail("candidate outside the document", fmt, text, repr(c))
        if c.start < last:
            _fail("candidates not sorted or overlapping", fmt, text, repr(c))
        last = c.end
        if c.offsets is None:
            if text[c.start:c.end] != c.value:
                _fail("candidate value is not its source text", fmt, text, repr(c))
        else:
            offs = list(c.offsets)
            if len(offs) != len(c.value) + 1 or offs[0] != c.start or offs[-1] != c.end or offs != sorted(offs):
                _fail("inconsistent offset map", fmt, text, repr(c))
    return cands


def check_text(text: str, fmt: str, engine: Engine = _ENGINE, settings=ALL_SETTINGS):
    scanner = get_scanner(fmt)
    return engine.check_text(text, path=FORMAT_FILES.get(fmt, "doc.txt"), settings=settings,
                             scanner=scanner, run_state={})


def check_findings(fmt: str, text: str, result) -> None:
    if result.errors:
        _fail("a rule crashed", fmt, text, "; ".join(result.errors))
    n = len(text)
    for f in result.findings:
        if not (0 <= f.start <= f.end <= n):
            _fail("finding outside the document", fmt, text, "%s %d-%d" % (f.rule.name, f.start, f.end))
        comment_fix = f.rule.name == "unused-suppression"
        if not comment_fix and not (0 <= f.ref_start <= f.start <= f.end <= f.ref_end <= n):
            _fail("finding outside its reference", fmt, text, "%s %d-%d ref %d-%d" % (
                f.rule.name, f.start, f.end, f.ref_start, f.ref_end))
        for fx in f.fixes:
            for e in fx.edits:
                if not (0 <= e.start <= e.end <= n):
                    _fail("fix edit outside the document", fmt, text, "%s %r" % (f.rule.name, e))
                if not comment_fix and not (f.ref_start <= e.start <= e.end <= f.ref_end):
                    _fail("fix edit outside its reference", fmt, text, "%s %s %r ref %d-%d" % (
                        f.rule.name, fx.title, e, f.ref_start, f.ref_end))
            try:
                apply_edits(text, fx.edits)
            except ValueError as exc:
                _fail("a fix has overlapping edits", fmt, text, "%s %s: %s" % (f.rule.name, fx.title, exc))
    # what the CLI and the JSON output do with the findings
    index = LineIndex(text)
    for r in locate("doc", result.findings, index):
        format_text(r)
        to_json_obj(r, index)


def _candidate_at(cands, start: int):
    for c in cands:
        if c.start == start:
            return c
    return None


def check_safe_fixes_preserve_uri(fmt: str, text: str, result) -> None:
    scanner = get_scanner(fmt)
    for f in result.findings:
        if f.rule.name == "unused-suppression":
            continue
        for fx in f.fixes:
            if not fx.safe:
                continue
            new = apply_edits(text, fx.edits)
            after = _candidate_at(scanner.scan(new), f.ref_start)
            if after is None:
                _fail("a safe fix lost its reference", fmt, text, "%s %s: %r" % (
                    f.rule.name, fx.title, new[f.ref_start:f.ref_start + 200]))
            before_key, after_key = uri_key(f.iri), uri_key(after.value)
            if before_key != after_key:
                _fail("a safe fix changed the URI", fmt, text, "%s %s: %r -> %r (%r -> %r)" % (
                    f.rule.name, fx.title, f.iri, after.value, before_key, after_key))


def fix_until_stable(fmt: str, text: str, unsafe: bool = False) -> Tuple[str, bool]:
    for _ in range(MAX_PASSES):
        result = check_text(text, fmt)
        if result.errors:
            _fail("a rule crashed while fixing", fmt, text, "; ".join(result.errors))
        edits = fixes_to_apply(result.findings, unsafe=unsafe)
        if not edits:
            return text, True
        new = apply_edits(text, edits)
        if new == text:
            return text, True
        text = new
    return text, False


def check_convergence(fmt: str, text: str, unsafe: bool = False) -> str:
    fixed, stable = fix_until_stable(fmt, text, unsafe=unsafe)
    if not stable:
        _fail("%s fixes do not converge in %d passes" % ("unsafe" if unsafe else "safe", MAX_PASSES),
              fmt, text, "last text: %r" % fixed[:300])
    return fixed


def check_conversions(value: str) -> None:
    parse(value)
    u = convert.to_uri(value)
    if not u.isascii():
        raise InvariantError("to_uri gave non-ASCII: %r -> %r" % (value, u))
    if convert.to_uri(u) != u:
        raise InvariantError("to_uri is not idempotent: %r -> %r -> %r" % (value, u, convert.to_uri(u)))
    for v in (value, u):
        # the private parts, so that the public function's "never raise"
        # guard cannot hide a bug
        parts = convert._iri_parts(v)
        if "".join(text for _s, _e, text, _piece in parts) != convert.to_iri(v):
            raise InvariantError("to_iri is not the join of its parts: %r" % (v,))
    convert.to_iri(value)


def check_document(text: str, fmt: str, *, fixes: bool = True, unsafe: bool = True) -> None:
    """Every invariant on one document of format ``fmt``."""
    cands = check_candidates(fmt, text)
    result = check_text(text, fmt)
    check_findings(fmt, text, result)
    for c in cands:
        check_conversions(c.value)
    if fixes:
        check_safe_fixes_preserve_uri(fmt, text, result)
        check_convergence(fmt, text)
        if unsafe:
            check_convergence(fmt, text, unsafe=True)


def formats() -> List[str]:
    return list(FORMAT_FILES)


def decode_input(data: bytes) -> List[str]:
    """The texts a byte string stands for: UTF-8 with surrogateescape (lone
    surrogates reach the scanners), and UTF-8 with replacement."""
    a = data.decode("utf-8", "surrogateescape")
    b = data.decode("utf-8", "replace")
    return [a] if a == b else [a, b]


def check_bytes(data: bytes, fmt: Optional[str] = None, fixes: bool = True) -> None:
    """The atheris entry: bytes -> texts -> every format (or ``fmt``)."""
    for text in decode_input(data):
        for f in ([fmt] if fmt else formats()):
            check_document(text, f, fixes=fixes)
        check_conversions(text)
