"""Templates: text that looks like a reference but is a pattern for one.

A format string (``"http://{host}/%s"``), a template language's output
(``{{ base }}/x``, ``<%= url %>``, ``${base}/x``), grammar or placeholder
notation in documentation (``sh://[user@]machine[:options]``,
``http://<host>/``, ``http://host.domain:port/``, ``http://$HOST$/x``) and
a regular expression (``^https?://example\\.com/[\\w-]+``) are not IRIs yet.
Only the rules about characters a reader cannot see or tell apart check
them (a rule says so: ``@rule(templates=...)``).  The reverse: when the scheme
and the authority of a template are written literally
(``https://example.com:8o80/{{ path }}``, ``javascript://[:1]``), the rules
about the port, the IP literal and the host still check those parts.
"""
from __future__ import annotations

import re
from typing import List, Optional

from .chars import first_in_class

#: Before a "[": what follows is no IP literal ([::1], [fe80::1%25en0], [v7.x]).
_NOT_IP_LITERAL = r"(?![0-9A-Fa-f:.]*(?:%25[\w.~-]*)?\]|[vV][0-9A-Fa-f]+\.)"

#: Template syntax inside a reference.
TEMPLATE_RE = re.compile(
    # Jinja/Django, ${...} (shell, JS template literals), ERB/ASP, PHP
    r"\{\{|\{%|\$\{|<%|<\?"
    # printf and Python formats: %(name)s, %s, %d, {name}, {name:fmt}, {0}, {}
    r"|%\([A-Za-z_][A-Za-z0-9_]*\)[-#0 +]*[0-9]*[a-z]"
    r"|%(?![0-9A-Fa-f]{2})[0-9]*[sd](?![0-9A-Fa-f])"  # "%41s" is an escape and an "s"
    r"|\{[A-Za-z_][A-Za-z0-9_.-]*(?:[!:][^{}]*)?\}|\{[0-9]*(?:[!:][^{}]*)?\}"
    # placeholders: <host> as a whole component, $HOST$, $HOST after a delimiter
    r"|(?:(?<=[/:@.=\[;,?&#])|\A)<[^\W\d][\w.-]*>(?=[/:@.\]\[;,?&#]|\Z)|\$[A-Za-z_][A-Za-z0-9_]*\$|(?<=[/@:.])\$[A-Z_][A-Z0-9_]*(?![a-z])"
    # grammar notation: optional parts in brackets ([user@], [:options],
    # /[remote-dir], data:[<MIME-type>]); an IP literal is none
    r"|(?:(?<=[/:@])|\A)\[" + _NOT_IP_LITERAL + r"[^\[\]\s]*[^\W\d_][^\[\]\s]*\]"
    r"|\[" + _NOT_IP_LITERAL + r"[:@;<][^\[\]\s]*\]"
    # an optional part right after the scheme ("data:[<MIME-type>]" cut at
    # its "<"): without "//" a "[" there is no IP literal
    r"|\A[A-Za-z][A-Za-z0-9+.-]*:\[(?:<|\Z)"
    # a port that is a word: host.domain:port, proxyserver:proxyport; not
    # with an "@" after it ("http://foo:bar/baz@example.com" is a real
    # confusion of userinfo and port)
    r"|(?:(?<=//)|(?<=@))[^/?#@\s\[\]:]*:[^\W\d_][\w-]*(?=[/?#]|\Z)(?!.*@)"
    # javascript: is code
    r"|\A[Jj][Aa][Vv][Aa][Ss][Cc][Rr][Ii][Pp][Tt]:")

#: Regular-expression syntax: a negated class, a class with a range
#: ([0-9A-F], [A-Za-z0-9_]), a group construct, a class escape, ".*" / ".+",
#: a counted repetition, "https?:".
REGEX_RE = re.compile(
    r"\[\^|\[[^\[\]]*[0-9A-Za-z]-[0-9A-Za-z][^\[\]]*\]|\(\?(?:[:=!>]|<?[=!]|P?<)"
    r"|\\[dwsDWSbB]|(?<![/*])\.[*+]|[^\s{]\{[0-9]+(?:,[0-9]*)?\}|https?\?:|\A\^")

#: Characters without which a reference cannot match TEMPLATE_RE or REGEX_RE
#: (a port word needs a second colon, "javascript:" its "j").
_TRIGGERS = "{%<$[\\*+(?^"
_TRIGGERS_RE = re.compile("[%s]" % re.escape(_TRIGGERS))


def is_template(value: str) -> bool:
    """Whether the reference ``value`` holds template, placeholder or
    regular-expression syntax."""
    if not (value[:1] in "jJ" or value.count(":") > 1 or first_in_class(value, _TRIGGERS, _TRIGGERS_RE) >= 0):
        return False
    if len(value) >= _TRY_STARTS_FROM:
        starts = _possible_starts(value)
        if starts is not None:
            template, regex = TEMPLATE_RE.match, REGEX_RE.match
            return any(template(value, i) is not None or regex(value, i) is not None for i in starts)
    return TEMPLATE_RE.search(value) is not None or REGEX_RE.search(value) is not None


#: A reference this long is tried only where a match can start
#: (:func:`_possible_starts`): a search tries both patterns' twenty
#: alternatives at every offset, ~50 ms over a megabyte of combining marks.
_TRY_STARTS_FROM = 4096
#: ... when there are at most this many such offsets.
_MAX_STARTS = 1024


#: The characters an alternative of TEMPLATE_RE or REGEX_RE starts with
#: ("%" only when no escape follows: "%\(" and "%s" are not escapes), and
#: those that mark a start beside them: "{" (the character before it),
#: "/" ("//" then a port word), "@" (then a port word).
_START_CHAR_RE = re.compile(r"[{$<\[(\\.h@/]|%(?![0-9A-Fa-f]{2})")


def _possible_starts(value: str) -> Optional[List[int]]:
    """Every offset where TEMPLATE_RE or REGEX_RE may start a match in
    ``value``, in order, or None when there are more than _MAX_STARTS.
    A search tried the two patterns' alternatives at each of a megabyte of
    escapes (~120 ms); this looks for their first characters only: the
    alternatives at the very start (0), those that start with one of
    _START_CHAR_RE's characters, a port word right after "//" or "@", and
    the character before a "{"."""
    starts = {0}
    for m in _START_CHAR_RE.finditer(value):
        i = m.start()
        c = value[i]
        if c == "/":
            if value[i - 1:i] == "/":
                starts.add(i + 1)
        elif c == "@":
            starts.add(i + 1)
        else:
            starts.add(i)
            if c == "{" and i:
                starts.add(i - 1)
        if len(starts) > _MAX_STARTS:
            return None
    return sorted(starts)


def looks_like_regex(text: str) -> bool:
    """Whether ``text`` (a whole string literal) is written in regex syntax."""
    return REGEX_RE.search(text) is not None


_AUTHORITY_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://([^/?#\s]*)")
#: An authority whose host is an IP literal: [v6 or vFuture], a colon inside.
_IP_LITERAL_AUTHORITY_RE = re.compile(
    r"(?:[^@\[\]]*@)?\[(?:[^\[\]]*:[^\[\]]*|[vV][0-9A-Fa-f]+\.[^\[\]]*)\](?::[^\[\]@]*)?\Z")
_REGEX_METACHARACTERS = frozenset("()*+?|^\\{}")


def literal_authority(value: str, regex: bool = False) -> bool:
    """Whether the template ``value`` starts with a scheme and an authority
    written literally (``https://example.com:8o80/{{ path }}``): no template
    or placeholder syntax in them, and with ``regex`` (the reference is in a
    regular expression) no regex syntax either."""
    m = _AUTHORITY_RE.match(value)
    if m is None or not m.group(1):
        return False
    authority = m.group(1)
    if TEMPLATE_RE.search(value, 0, m.end()) is not None and not value[:1] in "jJ":
        return False
    if TEMPLATE_RE.search(authority) is not None or REGEX_RE.search(authority) is not None:
        return False
    if "[" in authority or "]" in authority:
        if _IP_LITERAL_AUTHORITY_RE.match(authority) is None:
            return False
    if any(c in authority for c in "{}<>$`"):
        return False
    if regex and not _REGEX_METACHARACTERS.isdisjoint(authority):
        return False
    return True
