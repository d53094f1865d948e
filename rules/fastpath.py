"""The fast path: references that no rule in force can flag, found by one regex.

Most references in documentation are plain ASCII (no ``%``, no ``xn--``),
syntactically valid and already in normal form.  For those, parsing the
reference and running the rules costs far more than finding it, and finds
nothing.  :data:`FAST_RE` recognises such references in one C-level match;
the engine then skips the parse and the reference rules, and keeps the
reference (parsed lazily) for the document rules.

The fast path must give exactly the findings of the slow path (none), so:

* it applies only when every reference rule that runs on all references
  says it finds nothing in a match (``@rule(fast_path_silent=True)``).  A
  rule that does not (a new rule, ``ascii-lookalike``, ``default-port``)
  turns the fast path off for that selection;
* a match has none of the traits (:data:`irilint.rules.registry.TRAITS`):
  it is ASCII, without ``%`` and without ``xn--`` in any case, so no
  trait rule runs on it;
* a match is valid for the RFC 3987 grammar in every component, with a
  lowercase scheme and host and no ``.``/``..`` segment.

``tests/test_fastpath.py`` checks both paths against each other.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterable, List, Optional

from irilint.rules.registry import has_punycode_trait

_UNRESERVED = r"A-Za-z0-9\-._~"
_SUB_DELIMS = r"!$&'()*+,;="
_PCHAR = _UNRESERVED + _SUB_DELIMS + ":@"
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])"

#: A "." or ".." segment before the query (what dot-segments flags).
_DOT_SEGMENT_RE = re.compile(r"[^?#]*/\.\.?(?:[/?#]|\Z)")

def _fast_pattern(extra: str = "") -> str:
    """The pattern of :data:`FAST_RE`; ``extra`` (a class range) is allowed
    wherever ``_`` is: in the userinfo, a reg-name host, the path, the
    query and the fragment (not in the scheme, the port or an IPv4
    address)."""
    return (
        # A lowercase scheme, or none; then nothing before the first ":/?#"
        # may end with ":" (RFC 3986 Appendix B would read it as a scheme).
        r"(?:[a-z][a-z0-9+.\-]*:|(?![^:/?#]*:))"
        # The authority: userinfo, an IPv4 address or a lowercase reg-name,
        # a port of at most 4 digits (never out of range; empty is allowed by
        # the grammar, and only default-port, not fast-path silent, flags
        # it).  No authority: then the path may not start with "//".
        r"(?://(?:[" + _UNRESERVED + _SUB_DELIMS + r":" + extra + r"]*@)?"
        r"(?:(?P<ipv4>" + _OCTET + r"(?:\." + _OCTET + r"){3})|(?P<host>[a-z0-9\-._~" + _SUB_DELIMS + extra
        + r"]*))"
        r"(?::[0-9]{0,4})?(?=[/?#]|\Z)"
        r"|(?!//))"
        r"[" + _PCHAR + r"/" + extra + r"]*"            # path
        r"(?:\?[" + _PCHAR + r"/?" + extra + r"]*)?"     # query
        r"(?:\#[" + _PCHAR + r"/?" + extra + r"]*)?"     # fragment: no second "#"
        r"\Z"
    )


#: The grammar part of the fast path; :func:`fast_match` adds the rest.
FAST_RE = re.compile(_fast_pattern())

#: :data:`FAST_RE` with every non-ASCII character allowed where ``_`` is
#: (irilint.rules.gates: for references whose non-ASCII characters are all
#: ``ucschar``); compiled on first use.
_FAST_NON_ASCII_RE: List["re.Pattern[str]"] = []


def fast_non_ascii_re() -> "re.Pattern[str]":
    if not _FAST_NON_ASCII_RE:
        _FAST_NON_ASCII_RE.append(re.compile(_fast_pattern("\x80-\U0010ffff")))
    return _FAST_NON_ASCII_RE[0]


def __getattr__(name: str) -> Any:
    # SILENT_ON_FAST: the names of the rules that say they find nothing in
    # a reference :data:`FAST_RE` matches (``@rule(fast_path_silent=True)``;
    # the reasons are in the pattern's comments).  Worked out when asked:
    # the rules are registered after this module is imported.
    if name == "SILENT_ON_FAST":
        from irilint.rules.registry import all_rules

        return frozenset(r.name for r in all_rules() if r.fast_path_silent)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def fast_match(value: str) -> Optional["re.Match[str]"]:
    """The :data:`FAST_RE` match of a reference the fast path takes, or None."""
    # Plain substring tests first, as these are rare and a regex lookahead
    # would cost more; for "/." as for the trait test: a one-character test
    # (memchr speed: a base64 payload has no "."), then re's literal search
    # on long values.
    if has_punycode_trait(value):
        return None
    if "." in value and (_search_slash_dot(value) is not None if len(value) > 4096
                         else "/." in value) and _DOT_SEGMENT_RE.match(value):
        return None
    return _match(value)


_match = FAST_RE.match
_search_slash_dot = re.compile(r"/\.").search


def fast_matcher(reference_rules: Iterable) -> Optional[Callable[[str], Optional["re.Match[str]"]]]:
    """:func:`fast_match` if the fast path is exact for these reference
    rules (those with ``needs`` run only on references with a trait, which
    a match never has), else None."""
    for r in reference_rules:
        if r.needs is None and not r.fast_path_silent:
            return None
    return fast_match


#: The group of :data:`FAST_RE` that holds a reg-name host (its span is
#: (-1, -1) when the reference has none, e.g. an IPv4 address).
FAST_HOST_GROUP = "host"
