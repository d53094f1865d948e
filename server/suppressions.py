"""The ``irilint: ignore`` comments of a document: found, matched against
findings, and reported by the rules about suppressions (scope
"suppressions": one that suppresses nothing, one that names no rule)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .findings import Edit, Finding, Fix, Severity
from .lines import LineIndex

_SUPPRESS_RE = re.compile(r"irilint:\s*ignore(-file)?(?:\[([^\]\n]*)\])?")


@dataclass
class Suppression:
    """An ``irilint: ignore[...]`` comment."""

    line: int
    start: int  # offsets of the marker text in the document
    end: int
    selectors: Tuple[str, ...]  # empty: every rule
    whole_file: bool
    used: bool = False
    #: a comment alone on its line also covers the next line (reST comments
    #: cannot share a line with text, and a long line reads better so)
    own_line: bool = False
    next_line: int = -1  # the next line with text, for own-line comments
    #: the offsets of each selector's text, in the order of ``selectors``
    selector_spans: Tuple[Tuple[int, int], ...] = ()

    def covers(self, line: int) -> bool:
        return self.whole_file or line == self.line or (self.own_line and line == self.next_line)

    def matches(self, finding: Finding) -> bool:
        return self.matches_rule(finding.rule)

    def matches_rule(self, r: Any) -> bool:
        if not self.selectors:
            return True
        for s in self.selectors:
            su = s.upper()
            if s == r.name or su == r.code or s.lower() == r.family or (
                su.startswith("IRI") and r.code.startswith(su)
            ):
                return True
        return False


def find_suppressions(text: str, index: Optional[LineIndex] = None) -> List[Suppression]:
    if "irilint:" not in text:
        return []
    index = index or LineIndex(text)
    out: List[Suppression] = []
    for m in _SUPPRESS_RE.finditer(text):
        sel_list: List[str] = []
        spans: List[Tuple[int, int]] = []
        if m.group(2):
            at = m.start(2)
            for part in m.group(2).split(","):
                word = part.strip()
                if word:
                    first = at + part.index(word)
                    sel_list.append(word)
                    spans.append((first, first + len(word)))
                at += len(part) + 1
        sel = tuple(sel_list)
        line = index.line_of(m.start())
        content = index.line_text(line)
        rest = (content[:m.start() - index.starts[line]] + " " + content[m.end() - index.starts[line]:])
        own = not any(ch.isalnum() for ch in rest.replace("irilint", ""))
        nxt = line + 1
        if own:
            while nxt < index.line_count and not index.line_text(nxt).strip():
                nxt += 1
        out.append(Suppression(line, m.start(), m.end(), sel, bool(m.group(1)), own_line=own, next_line=nxt,
                               selector_spans=tuple(spans)))
    return out


def suppressions_by_line(suppressions: List[Suppression]) -> Dict[Optional[int], List[Suppression]]:
    """The suppressions that may cover each line (None: any other line), so
    matching a finding costs no pass over every suppression (a file with
    one per line would make that quadratic).  Every covering suppression is
    still tried, so each one that matches is marked used, as before."""
    whole = [s for s in suppressions if s.whole_file]
    by_line: Dict[Optional[int], List[Suppression]] = {}
    for s in suppressions:
        if not s.whole_file:
            for line in {s.line, s.next_line} if s.own_line else (s.line,):
                by_line.setdefault(line, []).append(s)
    out: Dict[Optional[int], List[Suppression]] = {line: whole + group for line, group in by_line.items()}
    out[None] = whole
    return out


def is_suppressed(f: Finding, index: LineIndex, covering: Dict[Optional[int], List[Suppression]]) -> bool:
    """Whether a suppression covers ``f`` (each one that does is marked used)."""
    line = index.line_of(f.start)
    hit = False
    for s in covering.get(line, covering[None]):
        if s.covers(line) and s.matches(f):
            s.used = True
            hit = True
    return hit


@dataclass
class SuppressionCheck:
    """What a rule about suppression comments (scope "suppressions") is
    given: every suppression of the document, after the other rules ran and
    were suppressed (``Suppression.used`` is set)."""

    rule: Any
    severity: Severity
    suppressions: List[Suppression]
    text: str
    index: LineIndex
    scanner: Any
    path: Optional[str]

    def unknown(self) -> List[Tuple[Suppression, List[int]]]:
        """Each suppression that names rules irilint does not have, with
        the indexes of those names among its selectors."""
        return _unknown_selectors(self.suppressions)

    def unknown_findings(self) -> List[Finding]:
        """A finding on each name of a rule that does not exist."""
        return _unknown_suppressions(self.rule, self.severity, self.unknown(), self.path)

    def unused_findings(self, suppressions: Sequence[Suppression]) -> List[Finding]:
        """A finding, with its removal, on each of ``suppressions`` that
        suppressed nothing."""
        return _unused_suppressions(self.rule, self.severity, suppressions, self.text, self.index,
                                    self.scanner, self.path)


def _unused_suppressions(rule, severity, suppressions, text, index, scanner, path) -> List[Finding]:
    from .unicode_security import quoted

    out: List[Finding] = []
    for s in suppressions:
        if s.used:
            continue
        bounds = _comment_bounds(text, index, s, scanner)
        title, safe = "Remove unused suppression", True
        if bounds is None:
            # Not a comment of its own: the marker alone goes.  Where text
            # outside comments is data, it may be in a string literal
            # ('"# irilint: ignore"' in a test), which a program reads.
            bounds = (s.start, s.end)
            if getattr(scanner, "text_is_data", False):
                safe = False
                title += " (unsafe: it is not alone in a comment, and may be in a string, which is data)"
        start, end = bounds
        what = "irilint: ignore" + ("-file" if s.whole_file else "")
        if s.selectors:
            what += "[%s]" % ", ".join(s.selectors)
        fix = Fix(title, (Edit(start, end, ""),), safe)
        out.append(Finding(rule=rule, severity=severity,
                           message="unused suppression: %s suppresses nothing" % quoted(what),
                           start=s.start, end=s.end, fixes=[fix],
                           ref_start=s.start, ref_end=s.end, iri="", path=path))
    return out


def _unknown_selectors(suppressions: List[Suppression]) -> List[Tuple[Suppression, List[int]]]:
    """Each suppression that names a rule irilint does not have, with the
    indexes of those names among its selectors."""
    from irilint.rules.registry import is_selector

    out = []
    for s in suppressions:
        bad = [i for i, word in enumerate(s.selectors) if not is_selector(word)]
        if bad:
            out.append((s, bad))
    return out


def _unknown_suppressions(rule, severity, unknown, path) -> List[Finding]:
    from .unicode_security import quoted

    out: List[Finding] = []
    for s, bad in unknown:
        for i in bad:
            start, end = s.selector_spans[i]
            out.append(Finding(rule=rule, severity=severity,
                               message="unknown rule in a suppression: %s is no rule name, code, code "
                                       "prefix or family (see 'irilint rules')" % quoted(s.selectors[i]),
                               start=start, end=end, fixes=[], ref_start=start, ref_end=end, iri="",
                               path=path))
    return out


def _comment_bounds(text: str, index: LineIndex, s: Suppression, scanner) -> Optional[Tuple[int, int]]:
    """The span to delete to remove a suppression: its whole comment when
    the comment holds nothing else, with the space before it; None when
    the marker is not such a comment."""
    line_start = index.starts[s.line]
    line_end = index.line_end(s.line)
    for syntax in getattr(scanner, "comments", ()):
        p = text.rfind(syntax.prefix, line_start, s.start)
        if p < 0:
            continue
        inner_before = text[p + len(syntax.prefix):s.start]
        if inner_before.strip():
            continue
        if syntax.suffix:
            q = text.find(syntax.suffix, s.end, line_end)
            if q < 0 or text[s.end:q].strip():
                continue
            end = q + len(syntax.suffix)
        else:
            if text[s.end:line_end].strip():
                continue
            end = line_end
        start = p
        while start > line_start and text[start - 1] in " \t":
            start -= 1
        if start == line_start and end == line_end:
            # The comment is the whole line: remove the line with its end.
            nxt = index.starts[s.line + 1] if s.line + 1 < len(index.starts) else len(text)
            return line_start, nxt
        return start, end
    return None
