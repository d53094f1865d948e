"""Preferred-form rules: the normal forms of RFC 3986 s6.2.2-6.2.3 (and
RFC 3987 s5.3).

Each rule flags one spelling that has an equivalent, preferred one, and
offers the preferred one as a safe fix: case of the scheme and host
(s6.2.2.1), dot-segments (s6.2.2.3) and the default port (s6.2.3) are
exactly the equivalences RFC 3986 licenses, so the fixed reference
identifies the same resource.

Defaults, chosen so that a documentation tree is not flooded:

* ``uppercase-scheme`` (info, enabled): rare in practice (``HTTP://``,
  ``Https://``), cheap to fix, and string comparisons in caches and
  allow-lists miss the match.
* ``uppercase-host`` (info, enabled): also rare (``Example.COM``); same
  reasons.  Product names written in a host (``GitHub.com``) are the main
  source of findings, and the fix is safe.
* ``dot-segments`` (warning, enabled): ``.`` and ``..`` in an absolute path
  usually come from a botched concatenation or a path-traversal attempt,
  and servers disagree on whether they are removed before routing.
* ``default-port`` (info, *disabled*): ``http://localhost:80/`` is written
  on purpose in setup guides and is harmless; enable it with
  ``extend-select = ["default-port"]`` for a strictly normalized tree.

These rules run on every reference, pure ASCII included, so each keeps its
fast path to a couple of string operations.
"""
from __future__ import annotations

import re
import unicodedata

from irilint.convert import remove_dot_segments

from .registry import rule

#: Default ports of the schemes whose default is well known and which
#: browsers normalize (the WHATWG "special" schemes).
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}

_SCHEME_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]+\Z")
_HOST_CASE_RE = re.compile(r"%[0-9A-Fa-f]{2}|[A-Z]+")
_ENCODED_DOT_RE = re.compile(r"%2[Ee]")


def _has_encoded_dot_segment(path: str) -> bool:
    """Does a segment spell "." or ".." with ``%2E``?  RFC 3986 keeps such
    a segment, but WHATWG URL (browsers) removes it like a literal one, so
    removing only the literal ones would change what a browser requests."""
    for seg in path.split("/"):
        if "%" in seg and _ENCODED_DOT_RE.sub(".", seg) in (".", ".."):
            return True
    return False


def _lower_ascii_outside_escapes(s: str) -> str:
    """Lowercase ASCII letters, leaving escapes and non-ASCII alone, and a
    letter a combining mark follows ("E" + U+0301 is "É", not "é")."""
    def lower(m):
        g = m.group()
        if g[0] == "%":
            return g
        if unicodedata.combining(s[m.end():m.end() + 1] or "a"):
            return g[:-1].lower() + g[-1]
        return g.lower()

    return _HOST_CASE_RE.sub(lower, s)


@rule(name="uppercase-scheme", code="IRI601", family="preferred-form", severity="info", fix="safe",
      fast_path_silent=True)
def uppercase_scheme(ctx):
    """A scheme written with uppercase letters.

    ## What it does
    Flags schemes such as ``HTTP:`` or ``Https:`` and offers the lowercase
    form.  One-letter "schemes" are not flagged: ``C:/Users`` is a Windows
    path, not a URI.

    ## Why
    Schemes are case-insensitive, and lowercase is the canonical form.
    Tools that compare references as strings (caches, link checkers,
    allow-lists, the ``irilint`` collision rules) treat ``HTTP://x`` and
    ``http://x`` as different.  Info, enabled by default: the case is rare
    and the fix is safe.

    ## Example
    ``HTTP://example.org/`` becomes ``http://example.org/``.

    ## Fix safety
    Safe: scheme case is an equivalence (RFC 3986 s6.2.2.1).

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3986 s3.1 and s6.2.2.1; RFC 3987 s5.3.2.1.
    """
    sp = ctx.ref.scheme
    if sp is None:
        return None
    value = ctx.value
    s = value[sp.start:sp.end]
    if s.islower() or not _SCHEME_RE.match(s):
        return None
    low = s.lower()
    return [ctx.report(sp.start, sp.end,
                       "scheme '%s' has uppercase letters; schemes are case-insensitive and '%s' is the "
                       "normal form" % (s, low),
                       [ctx.replace("Lowercase the scheme to '%s'" % low, sp.start, sp.end, low, True)])]


def _valid_ipv6(ctx) -> bool:
    h = ctx.ref.host
    return not any(p.kind == "invalid-ip-literal" and p.start < h.end and h.start < p.end
                   for p in ctx.ref.problems)


@rule(name="uppercase-host", code="IRI602", family="preferred-form", severity="info", fix="safe",
      fast_path_silent=True)
def uppercase_host(ctx):
    """A host written with uppercase ASCII letters.

    ## What it does
    Flags ASCII uppercase letters in a registered-name host
    (``Example.COM``, ``XN--BCHER-KVA.de``) and in the hexadecimal digits
    of an IPv6 literal (``[2001:DB8::1]``), and offers the lowercase form.
    The hex digits of percent-encodings (which are uppercase by
    preference) and non-ASCII letters are left alone: whether ``Ä`` and
    ``ä`` are the same host depends on IDNA mapping, not on RFC 3986.
    IPvFuture literals are left alone too.

    ## Why
    Hosts are case-insensitive (RFC 3986 s3.2.2) and lowercase is the
    canonical form (RFC 5952 s4.3 for IPv6).  Mixed case defeats string
    comparison in caches, link checkers and allow-lists, and makes two
    references to one site look different.  Info, enabled: it is rare in
    real documents (mostly product names such as ``GitHub.com``) and the
    fix is safe.

    ## Example
    ``http://Example.COM/Path`` becomes ``http://example.com/Path`` (the
    path keeps its case: it is case-sensitive).

    ## Fix safety
    Safe: host case is an equivalence (RFC 3986 s6.2.2.1), and only ASCII
    letters outside percent-encodings change.

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3986 s3.2.2 and s6.2.2.1; RFC 5952 s4.3; RFC 3987 s5.3.2.1.
    """
    h = ctx.ref.host
    if h is None:
        return None
    value = ctx.value
    t = value[h.start:h.end]
    if t.islower() or not t:
        return None
    kind = ctx.ref.host_kind
    if kind == "reg-name":
        new = _lower_ascii_outside_escapes(t)
    elif kind == "ip-literal" and _valid_ipv6(ctx):
        new = t.lower()
    else:
        return None
    if new == t:
        return None
    return [ctx.report(h.start, h.end,
                       "host '%s' has uppercase letters; hosts are case-insensitive and '%s' is the normal form"
                       % (t, new),
                       [ctx.replace("Lowercase the host to '%s'" % new, h.start, h.end, new, True)])]


@rule(name="dot-segments", code="IRI603", family="preferred-form", severity="warning", fix="sometimes",
      fast_path_silent=True)
def dot_segments(ctx):
    """A ``.`` or ``..`` segment in an absolute path.

    ## What it does
    Flags literal ``.`` and ``..`` path segments in a hierarchical path:
    the path of a reference with an authority (``http://h/a/../b``,
    ``//h/./x``) or an absolute path (``/a/./b``), and offers the path
    with them removed (RFC 3986 s5.2.4).  The finding spans the first to
    the last dot-segment.

    Not flagged: relative-path references (``../img/x.png``), where dot
    segments are the point, rootless paths of absolute IRIs
    (``urn:a/../b``, ``mailto:``, ``data:``), which browsers treat as
    opaque, and Windows paths (``C:/a/../b``: one-letter "schemes").  Percent-encoded dots (``%2E%2E``) are not dot-segments for
    RFC 3986 and are left to the percent-encoding rules.

    ## Why
    RFC 3986 removes dot-segments when a reference is resolved, but some
    tools do not when the reference is already absolute, so a server may
    see ``/a/../b`` or ``/b`` depending on the client.  In an absolute
    path they usually come from a botched concatenation, and ``..`` is the
    shape of a path-traversal attempt.  Warning, enabled.

    ## Example
    ``http://example.org/a/./b/../c`` becomes ``http://example.org/a/c``.

    ## Fix safety
    Safe: removing dot-segments is an equivalence (RFC 3986 s6.2.2.3), and
    resolution does the same.  No fix where the result would start with
    ``//`` without an authority (``file:/.//etc``): it would then read as
    a host.  No fix either when the path also holds percent-encoded
    dot-segments (``/a/%2E%2E/./b``) or backslashes: browsers (WHATWG URL)
    treat those as ``..`` and ``/``, RFC 3986 does not, so removing only
    the literal dot-segments would change what a browser requests.

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3986 s3.3, s5.2.4 and s6.2.2.3; RFC 3987 s5.3.2.
    """
    p = ctx.ref.path
    if p.start == p.end:
        return None
    value = ctx.value
    t = value[p.start:p.end]
    if "/." not in t or t[0] != "/":
        return None
    sp = ctx.ref.scheme
    if sp is not None and sp.end - sp.start == 1:
        return None  # "C:/a/../b" is a Windows path
    first = last = -1
    kinds = []
    for seg in ctx.ref.segments:
        st = value[seg.start:seg.end]
        if st == "." or st == "..":
            if first < 0:
                first = seg.start
            last = seg.end
            if st not in kinds:
                kinds.append(st)
    if first < 0:
        return None
    new = remove_dot_segments(t)
    what = " and ".join("'%s'" % k for k in kinds)
    if ctx.ref.authority is None and new.startswith("//"):
        return [ctx.report(first, last,
                           "path '%s' has dot-segments (%s); removing them would give '%s', which would read "
                           "as an authority, so remove them by hand" % (t, what, new))]
    if "\\" in t or ("%2" in t and _has_encoded_dot_segment(t)):
        return [ctx.report(first, last,
                           "path '%s' has dot-segments (%s); it also has percent-encoded dot-segments or "
                           "backslashes, which browsers treat as dots and slashes, so remove them by hand"
                           % (t, what))]
    return [ctx.report(first, last, "path '%s' has dot-segments (%s); it resolves to '%s'" % (t, what, new),
                       [ctx.replace("Remove dot-segments: '%s'" % new, p.start, p.end, new, True)])]


@rule(name="default-port", code="IRI604", family="preferred-form", severity="info", enabled=False,
      fix="safe")
def default_port(ctx):
    """A port that is the scheme's default, or an empty port.

    ## What it does
    Flags ``:80`` after an ``http`` or ``ws`` host, ``:443`` after
    ``https`` or ``wss``, ``:21`` after ``ftp`` (leading zeros included:
    ``:080``), and an empty port (``http://h:/``) with any scheme, and
    offers the reference without it.  Scheme-less ``//h:80/`` is not
    flagged: its default depends on the base.

    ## Why
    RFC 3986 s3.2.3 asks producers and normalizers to omit a default or
    empty port; two spellings of one address defeat string comparison.
    Info and *disabled* by default: ``http://localhost:80/`` is often
    written on purpose in setup guides, and it is harmless.  Enable it
    for strictly normalized trees.

    ## Example
    ``https://example.org:443/`` becomes ``https://example.org/``.

    ## Fix safety
    Safe: a default port and an empty port are equivalent to no port
    (RFC 3986 s6.2.3).

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3986 s3.2.3 and s6.2.3; RFC 7230 s2.7.1-2.7.2 (http, https).
    """
    port = ctx.ref.port
    if port is None:
        return None
    value = ctx.value
    pt = value[port.start:port.end]
    colon = port.start - 1
    host = ctx.ref.host
    if host is not None and ":" in value[host.start:host.end] and not value.startswith("[", host.start):
        # "h::" or "h:x:80": without this port, another ":" would become the
        # port delimiter and the host would change.  invalid-character
        # reports the ":" in the host.
        return None
    if not pt:
        return [ctx.report(colon, port.end, "empty port: the ':' after the host means the default port and "
                                            "can be removed",
                           [ctx.replace("Remove the empty port", colon, port.end, "", True)])]
    scheme = ctx.ref.scheme_lower
    default = DEFAULT_PORTS.get(scheme) if scheme else None
    if default is None or not (pt.isascii() and pt.isdigit()) or int(pt) != default:
        return None
    return [ctx.report(colon, port.end, "port %s is the default port of %s and can be omitted" % (pt, scheme),
                       [ctx.replace("Remove the default port ':%s'" % pt, colon, port.end, "", True)])]
