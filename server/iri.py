"""The IRI reference model: parse any string per the ABNF of RFC 3987 s2.2.

The split into components follows RFC 3986 Appendix B (first match wins),
so every string parses; what the grammar does not allow is recorded as a
:class:`SyntaxProblem` with its offsets instead of raising.  All offsets are
``[start, end)`` code point offsets into the parsed string.
"""
from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from .chars import IPRIVATE_CLASS, UCSCHAR_CLASS, first_index, is_iprivate, is_noncharacter

__all__ = ["Span", "SyntaxProblem", "IRIReference", "parse", "IDNA_DOTS", "LABEL_SPLIT_RE"]

#: Label separators that IDNA (UTS #46) maps to "." in a host.
IDNA_DOTS = "\u3002\uff0e\uff61"

_SCHEME_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*\Z")
_IPV4_RE = re.compile(
    r"(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}"
    r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\Z"
)
_IPVFUTURE_RE = re.compile(r"[vV][0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+\Z")
#: the separators of host labels: "." and the dots IDNA maps to it
LABEL_SPLIT_RE = re.compile("[.%s]" % IDNA_DOTS)
_BAD_PERCENT_RE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_QUERY_SEP_RE = re.compile("[&;]")
#: RFC 3986 Appendix B, ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
#: with groups: 1 scheme, 2 authority, 3 path, 4 query, 5 fragment.
_SPLIT_RE = re.compile(r"(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?", re.DOTALL)

# Characters allowed in each component, besides pct-encoded (checked apart):
# the ASCII ones, then ucschar (and iprivate in the query).
# iunreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" / ucschar
_IUNRESERVED_ASCII = r"A-Za-z0-9\-._~"
_SUB_DELIMS = r"!$&'()*+,;="
_PCHAR_ASCII = _IUNRESERVED_ASCII + _SUB_DELIMS + ":@%"
_ASCII_ALLOWED = {
    "userinfo": _IUNRESERVED_ASCII + _SUB_DELIMS + ":%",
    "host": _IUNRESERVED_ASCII + _SUB_DELIMS + "%",
    "path": _PCHAR_ASCII + "/",
    "query": _PCHAR_ASCII + "/?",
    "fragment": _PCHAR_ASCII + "/?",
}
_ALLOWED = {
    component: ascii_ok + UCSCHAR_CLASS + (IPRIVATE_CLASS if component == "query" else "")
    for component, ascii_ok in _ASCII_ALLOWED.items()
}
#: "[^allowed]" per (component, ASCII text only), compiled on first use:
#: the Unicode classes make these large patterns (~3 ms each to compile),
#: and an all-ASCII reference -- most of them -- needs only the ASCII
#: characters of the class, which compile in a fraction of that.
_BAD_CHAR: dict = {}


def _bad_char_re(component: str, ascii_text: bool = False) -> "re.Pattern[str]":
    """The characters a component may not hold; with ``ascii_text``, the
    same on ASCII text only."""
    key = (component, ascii_text)
    rx = _BAD_CHAR.get(key)
    if rx is None:
        allowed = (_ASCII_ALLOWED if ascii_text else _ALLOWED)[component]
        rx = _BAD_CHAR[key] = re.compile("[^%s]" % allowed)
    return rx


@dataclass(frozen=True)
class Span:
    start: int
    end: int

    def __len__(self) -> int:
        return self.end - self.start

    def text(self, s: str) -> str:
        return s[self.start:self.end]


@dataclass(frozen=True)
class SyntaxProblem:
    """Something the RFC 3987 grammar does not allow.

    ``kind`` is one of: ``invalid-character``, ``noncharacter``,
    ``private-use-outside-query``, ``invalid-scheme``, ``invalid-port``,
    ``invalid-ip-literal``, ``bad-percent-encoding``.
    """

    kind: str
    start: int
    end: int
    component: str
    message: str


@dataclass
class IRIReference:
    """A parsed IRI reference.  Component spans are ``None`` when absent.

    An empty but present component (``http://h/?`` has an empty query) has
    an empty span, which is different from ``None``.
    """

    text: str
    scheme: Optional[Span] = None
    authority: Optional[Span] = None
    userinfo: Optional[Span] = None
    host: Optional[Span] = None
    #: "reg-name", "ipv4", "ip-literal" or "ipvfuture"; None without a host.
    host_kind: Optional[str] = None
    port: Optional[Span] = None
    path: Span = field(default_factory=lambda: Span(0, 0))
    query: Optional[Span] = None
    fragment: Optional[Span] = None
    problems: List[SyntaxProblem] = field(default_factory=list)

    # -- convenience -------------------------------------------------------
    def get(self, name: str) -> Optional[str]:
        """The text of a component by name ("scheme", "host", ...)."""
        span = getattr(self, name)
        return None if span is None else self.text[span.start:span.end]

    @property
    def is_absolute(self) -> bool:
        return self.scheme is not None

    @property
    def scheme_lower(self) -> Optional[str]:
        s = self.get("scheme")
        return None if s is None else s.lower()

    @property
    def segments(self) -> List[Span]:
        """The path segments, split at "/" (a leading "/" gives no segment)."""
        out: List[Span] = []
        p = self.path
        if p.start == p.end:
            return out
        text = self.text
        start = p.start
        if text[start] == "/":
            start += 1
        while True:
            slash = text.find("/", start, p.end)
            if slash < 0:
                out.append(Span(start, p.end))
                return out
            out.append(Span(start, slash))
            start = slash + 1

    @property
    def host_labels(self) -> List[Span]:
        """The labels of a reg-name host, split at "." and its IDNA variants.
        Kept once computed (rules ask several times); never change the list."""
        cached = self.__dict__.get("_host_labels")
        if cached is not None:
            return cached
        if self.host is None or self.host_kind != "reg-name":
            return []
        out: List[Span] = []
        self.__dict__["_host_labels"] = out
        start = self.host.start
        for m in LABEL_SPLIT_RE.finditer(self.text, self.host.start, self.host.end):
            out.append(Span(start, m.start()))
            start = m.end()
        out.append(Span(start, self.host.end))
        return out

    @property
    def query_parts(self) -> List[Tuple[Span, Optional[Span]]]:
        """``name=value`` pairs of the query, split at "&" and ";"."""
        out: List[Tuple[Span, Optional[Span]]] = []
        if self.query is None or self.query.start == self.query.end:
            return out
        text = self.text
        start = self.query.start
        end = self.query.end
        while start <= end:
            m = _QUERY_SEP_RE.search(text, start, end)
            stop = m.start() if m else end
            eq = text.find("=", start, stop)
            if eq < 0:
                out.append((Span(start, stop), None))
            else:
                out.append((Span(start, eq), Span(eq + 1, stop)))
            if m is None:
                break
            start = stop + 1
        return out

    def component_at(self, offset: int) -> str:
        """The name of the component that holds ``offset``."""
        for name in ("scheme", "userinfo", "host", "port", "query", "fragment"):
            span = getattr(self, name)
            if span is not None and span.start <= offset < span.end:
                return name
        return "path"

    def __str__(self) -> str:
        return self.text


def parse(text: str, grammar_checked: bool = False) -> IRIReference:
    """Parse ``text`` as an IRI reference.  Never raises.

    ``grammar_checked``: the caller knows the grammar holds (the fast
    path's regex matched, irilint.rules.fastpath and irilint.rules.gates),
    so no character check can find a problem and they are skipped."""
    n = len(text)
    if n < FIND_SPLIT_FROM:
        # RFC 3986 Appendix B, one C-level match.
        m = _SPLIT_RE.match(text)
        colon = m.end(1)
        a_start, a_end = m.span(2)
        p_start, p_end = m.span(3)
        q_start, q_end = m.span(4)
        f_start = m.start(5)
    else:
        colon, a_start, a_end, p_start, p_end, q_start, q_end, f_start = _split_long(text)
    ref = IRIReference(text=text, path=Span(p_start, p_end))
    problems = ref.problems
    if colon >= 0:
        ref.scheme = Span(0, colon)
        if not grammar_checked and not _SCHEME_RE.match(text, 0, colon):
            problems.append(SyntaxProblem(
                "invalid-scheme", 0, colon, "scheme",
                "scheme %s must start with a letter and hold only letters, "
                "digits, '+', '-' and '.'" % _quoted(text[:colon])))
    if a_start >= 0:
        ref.authority = Span(a_start, a_end)
        _parse_authority(ref, a_start, a_end, not grammar_checked)
    if q_start >= 0:
        ref.query = Span(q_start, q_end)
    if f_start >= 0:
        ref.fragment = Span(f_start, n)

    if grammar_checked:
        return ref
    _check_chars(ref, "path", ref.path)
    if ref.query is not None:
        _check_chars(ref, "query", ref.query)
    if ref.fragment is not None:
        _check_chars(ref, "fragment", ref.fragment)
    problems.sort(key=lambda p: (p.start, p.end))
    return ref


#: From this length on, a reference is split with one ``str.find`` per
#: delimiter instead of _SPLIT_RE: the regex tests each character of the
#: path (~3 ns a character, a megabyte of combining marks in a path), a find
#: skips to the delimiter at memchr speed.  Below it the one match is cheaper.
FIND_SPLIT_FROM = 1024


def _split_long(text: str) -> Tuple[int, int, int, int, int, int, int, int]:
    """What _SPLIT_RE gives ``text``: the scheme's end, the authority's,
    path's and query's (start, end) and the fragment's start, -1 for an
    absent part (``tests/test_iri.py`` checks both agree)."""
    n = len(text)
    k = first_index(text, ":/?#")
    colon = k if k > 0 and text[k] == ":" else -1
    p = colon + 1
    a_start = a_end = -1
    if text.startswith("//", p):
        a_start = p + 2
        a_end = first_index(text, "/?#", a_start)
        if a_end < 0:
            a_end = n
        p = a_end
    p_end = first_index(text, "?#", p)
    if p_end < 0:
        p_end = n
    q_start = q_end = f_start = -1
    if p_end < n and text[p_end] == "?":
        q_start = p_end + 1
        q_end = text.find("#", q_start)
        if q_end < 0:
            q_end = n
        if q_end < n:
            f_start = q_end + 1
    elif p_end < n:
        f_start = p_end + 1
    return colon, a_start, a_end, p, p_end, q_start, q_end, f_start


def _parse_authority(ref: IRIReference, start: int, end: int, check_chars: bool = True) -> None:
    text = ref.text
    at = text.rfind("@", start, end)
    host_start = start
    if at >= 0:
        ref.userinfo = Span(start, at)
        if check_chars:
            _check_chars(ref, "userinfo", ref.userinfo)
        host_start = at + 1
    # The port follows the last ":" that is not inside an IP literal.
    host_end = end
    if host_start < end and text[host_start] == "[":
        close = text.find("]", host_start, end)
        if close < 0:
            ref.host = Span(host_start, end)
            ref.host_kind = "ip-literal"
            ref.problems.append(SyntaxProblem(
                "invalid-ip-literal", host_start, end, "host",
                "IP literal is missing its closing ']'"))
            return
        host_end = close + 1
        if host_end < end:
            if text[host_end] == ":":
                ref.port = Span(host_end + 1, end)
            else:
                ref.problems.append(SyntaxProblem(
                    "invalid-character", host_end, end, "host",
                    "unexpected text after the IP literal"))
        ref.host = Span(host_start, host_end)
        _check_ip_literal(ref, host_start, host_end)
    else:
        colon = text.rfind(":", host_start, end)
        if colon >= 0:
            host_end = colon
            ref.port = Span(colon + 1, end)
        ref.host = Span(host_start, host_end)
        host = text[host_start:host_end]
        ref.host_kind = "ipv4" if _IPV4_RE.match(host) else "reg-name"
        if ref.host_kind == "reg-name" and check_chars:
            _check_chars(ref, "host", ref.host)
    if ref.port is not None:
        _check_port(ref)


def _check_port(ref: IRIReference) -> None:
    port = ref.get("port") or ""
    span = ref.port
    assert span is not None
    if not port:
        return  # "http://h:/" is allowed by the grammar (empty port).
    if not port.isascii() or not port.isdigit():
        ref.problems.append(SyntaxProblem(
            "invalid-port", span.start, span.end, "port",
            "port %s is not a decimal number" % _quoted(port)))
    elif int(port) > 65535:
        ref.problems.append(SyntaxProblem(
            "invalid-port", span.start, span.end, "port",
            "port %s is out of range (0-65535)" % port))


def _quoted(s: str) -> str:
    # imported when a message is made: most references have no problem
    from .anatomy import quoted

    return quoted(s)


def _check_ip_literal(ref: IRIReference, start: int, end: int) -> None:
    inner = ref.text[start + 1:end - 1]
    if _IPVFUTURE_RE.match(inner):
        ref.host_kind = "ipvfuture"
        return
    ref.host_kind = "ip-literal"
    ok = False
    if inner.isascii() and "%" not in inner and inner:
        try:
            ipaddress.IPv6Address(inner)
            ok = True
        except ValueError:
            ok = False
    if not ok:
        ref.problems.append(SyntaxProblem(
            "invalid-ip-literal", start, end, "host",
            "[%s] is neither an IPv6 address nor an IPvFuture literal" % _quoted(inner)[1:-1]))


def _check_chars(ref: IRIReference, component: str, span: Span) -> None:
    text = ref.text
    if span.start == span.end:
        return
    problems = ref.problems
    for m in _bad_char_re(component, text.isascii()).finditer(text, span.start, span.end):
        i = m.start()
        cp = ord(text[i])
        if is_noncharacter(cp):
            kind, why = "noncharacter", "a noncharacter"
        elif is_iprivate(cp):
            kind, why = ("private-use-outside-query",
                         "a private-use character, allowed only in the query")
        else:
            kind, why = "invalid-character", "not allowed in the %s" % component
        problems.append(SyntaxProblem(kind, i, i + 1, component, why))
    for m in _BAD_PERCENT_RE.finditer(text, span.start, span.end):
        i = m.start()
        problems.append(SyntaxProblem(
            "bad-percent-encoding", i, min(i + 3, span.end, _pct_end(text, i, span.end)),
            component, "'%' is not followed by two hexadecimal digits"))


def _pct_end(text: str, i: int, end: int) -> int:
    """End of the malformed escape at ``i``: "%" plus any hex digits after it."""
    j = i + 1
    while j < end and j < i + 3 and text[j] in "0123456789ABCDEFabcdef":
        j += 1
    return j


_ESCAPE_RE = re.compile(r"%([0-9A-Fa-f]{2})")
#: (text, path start, path end) of the text would_make_dot_segment parsed
#: last: the escapes of one reference are asked about one after another
_last_path: Tuple[str, int, int] = ("", 0, 0)
#: the longest segment that can read as "..": two escapes
_DOT_SEGMENT_MAX = 6


def would_make_dot_segment(s: str, start: int, end: int, decoded: str) -> bool:
    """Would decoding ``s[start:end]`` to ``decoded`` make a "." or ".."
    path segment?  Such a segment is removed on resolution (RFC 3986
    s5.2.4) while the encoded form is not, so decoding it would change
    where the reference leads.  Only the path has segments."""
    global _last_path
    text, p_start, p_end = _last_path
    if text is not s:
        path = parse(s).path
        p_start, p_end = path.start, path.end
        _last_path = (s, p_start, p_end)  # one assignment: safe across threads
    if not (p_start <= start and end <= p_end):
        return False
    # An escape reads as one character and anything else as itself, so a
    # segment of more than six characters is neither "." nor "..": only
    # six characters each side are looked at (a run of escapes in one
    # segment was decoded whole for each of its escapes).
    lo = max(p_start, start - _DOT_SEGMENT_MAX)
    slash = s.rfind("/", lo, start)
    if slash >= 0:
        seg_start = slash + 1
    elif lo == p_start:
        seg_start = p_start
    else:
        return False
    hi = min(p_end, end + _DOT_SEGMENT_MAX)
    slash = s.find("/", end, hi)
    if slash >= 0:
        seg_end = slash
    elif hi == p_end:
        seg_end = p_end
    else:
        return False
    if (start - seg_start) + len(decoded) + (seg_end - end) > _DOT_SEGMENT_MAX:
        return False
    segment = s[seg_start:start] + decoded + s[end:seg_end]
    return _ESCAPE_RE.sub(
        lambda m: "." if m.group(1) in ("2E", "2e") else "x", segment
    ) in (".", "..")
