"""Syntax rules: what the RFC 3987 grammar (s2.2) does not allow."""
from __future__ import annotations

from irilint.convert import percent_encode
from irilint.anatomy import describe

from .registry import rule


def _problems(ctx, kind):
    problems = ctx.ref.problems
    return [p for p in problems if p.kind == kind] if problems else problems


# Characters whose percent-encoding is the only reading a reader could mean:
# they can never be literal in an IRI, so encoding them keeps what the link
# was meant to be.  "#", "[", "]" and "@" are delimiters elsewhere, so
# encoding one out of place is a guess and stays unsafe.
_SAFE_TO_ENCODE_ASCII = set(' <>"{}|\\^`')
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


@rule(name="invalid-character", code="IRI001", family="syntax", severity="error", fix="sometimes",
      specificity=10, fast_path_silent=True)
def invalid_character(ctx):
    """A character that may not stand in this part of an IRI.

    ## What it does
    Flags characters the RFC 3987 grammar does not allow where they stand:
    space, ``< > " { } | \\ ^`` and backtick, C0 and C1 controls, DEL,
    surrogates, U+FFF0-U+FFFF (among them U+FFFD REPLACEMENT CHARACTER,
    which usually marks a decoding accident), plane-14 tags, and delimiters
    out of place (a second ``#``, ``[`` or ``]`` outside an IP literal,
    ``@`` in the userinfo).  A run of adjacent such characters (a line
    break and the indentation after it) is one finding, with one fix.

    ## Why
    Such a reference is not an IRI: tools disagree on where it ends and
    what it means, and a copy-paste through another tool may silently
    change it.

    ## Example
    ``http://example.org/my file.html`` holds a space.  Use
    ``http://example.org/my%20file.html``.

    ## Fix safety
    Percent-encoding the character.  Safe for characters that can never be
    literal (space, ``<``, ``>``, quotes, braces, controls...), since the
    encoded form is the only valid reading; unsafe for delimiters out of
    place and for U+FFFD, where the author may have meant something else.
    A run with a tab or a line break is different: those who extract a
    reference drop such whitespace (RFC 3986 Appendix C), so removing it
    and encoding it are both offered as unsafe.

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3987 s2.2 (ABNF), RFC 3986 s2 and Appendix C.
    """
    for run in _runs(_problems(ctx, "invalid-character")):
        first, last = run[0], run[-1]
        start, end = first.start, last.end
        chars = ctx.value[start:end]
        # A tab or line break inside a reference is dropped by those who
        # extract it (RFC 3986 Appendix C; the WHATWG URL parser removes
        # them too): encoded, it would lead elsewhere than it does.
        wrapped = any(c in "\t\n\r" for c in chars)
        safe = not wrapped and all(
            c in _SAFE_TO_ENCODE_ASCII or ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in chars)
        encoded = "".join(_encode_invalid(c) for c in chars)
        fixes = []
        if wrapped and chars.strip(" \t\n\r") == "":
            fixes.append(ctx.replace("Remove the whitespace, as RFC 3986 Appendix C reads it (unsafe)",
                                     start, end, "", False))
        # Text after the "]" of an IP literal: no encoding makes it valid.
        after_ip_literal = first.component == "host" and ctx.value[start - 1:start] == "]"
        if encoded != chars and not after_ip_literal:
            what = describe(chars) if len(chars) == 1 else "%d characters" % len(chars)
            fixes.append(ctx.replace(
                "Percent-encode %s as %s" % (what, encoded) + ("" if safe else " (unsafe)"),
                start, end, encoded, safe))
        if len(run) == 1 and end - start > 1:  # one problem over several characters
            message = "%s is %s" % (describe(chars[0]), first.message)
        elif len(chars) == 1:
            message = "%s is %s" % (describe(chars), first.message)
        elif len(set(chars)) == 1:
            message = "%s (%d in a row) is %s" % (describe(chars[0]), len(chars), first.message)
        else:
            message = "%d characters are %s: %s" % (len(chars), first.message, _list_distinct(chars))
        yield ctx.report(start, end, message, fixes)


#: Distinct characters a message lists before it says "and N more".
_MAX_LISTED = 6


def _list_distinct(chars: str) -> str:
    """``U+XXXX NAME`` of each distinct character, in order of appearance."""
    seen = list(dict.fromkeys(chars))
    shown = ", ".join(describe(c) for c in seen[:_MAX_LISTED])
    if len(seen) > _MAX_LISTED:
        shown += " and %d more" % (len(seen) - _MAX_LISTED)
    return shown


def _runs(problems):
    """The problems grouped into runs of adjacent characters with the same
    diagnosis: a line break and the indentation after it, or a phrase of
    spaces, is one problem to a reader, not one per character."""
    run = []
    for p in problems:
        if run and p.start == run[-1].end and p.component == run[-1].component \
                and p.message == run[-1].message:
            run.append(p)
            continue
        if run:
            yield run
        run = [p]
    if run:
        yield run


def _encode_invalid(c: str) -> str:
    encoded = percent_encode(c)
    if encoded == c and c not in _UNRESERVED and c != "%":
        # a delimiter out of place: "#", "[", "]", "@".  Unreserved
        # characters and escapes stay: encoded they mean the same, so
        # encoding them fixes nothing (text after "]" of an IP literal) and
        # percent-encoded-unreserved would decode them again.
        encoded = "%%%02X" % ord(c)
    return encoded


@rule(name="noncharacter", code="IRI002", family="syntax", severity="error", fix="unsafe", specificity=30,
      fast_path_silent=True)
def noncharacter(ctx):
    """A Unicode noncharacter in an IRI.

    ## What it does
    Flags U+FDD0-U+FDEF and the last two code points of every plane
    (U+FFFE, U+FFFF, U+1FFFE...).

    ## Why
    Noncharacters are for a program's internal use; RFC 3987 excludes them
    from ucschar, so the reference is not an IRI.

    ## Example
    ``http://example.org/a\\uFDD0b``

    ## Fix safety
    Percent-encoding, offered as unsafe: the character probably should not
    be there at all.

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3987 s2.2 (ucschar), Unicode s23.7.
    """
    for p in _problems(ctx, "noncharacter"):
        ch = ctx.value[p.start:p.end]
        enc = percent_encode(ch)
        yield ctx.report(p.start, p.end, "%s is a noncharacter, not allowed in an IRI" % describe(ch),
                         [ctx.replace("Percent-encode as %s (unsafe)" % enc, p.start, p.end, enc, False)])


@rule(name="private-use-outside-query", code="IRI003", family="syntax", severity="error", fix="unsafe",
      specificity=30, fast_path_silent=True)
def private_use_outside_query(ctx):
    """A private-use character outside the query.

    ## What it does
    Flags characters of the private-use areas (U+E000-U+F8FF, planes 15 and
    16) anywhere but in the query.

    ## Why
    RFC 3987 allows iprivate only in the query: its meaning is private to
    the sender and receiver, and no reader can know how it looks.

    ## Example
    ``http://example.org/\\uE000`` (allowed: ``http://example.org/?\\uE000``)

    ## Fix safety
    Percent-encoding keeps the same URI but is offered as unsafe, because
    the character was probably not meant.

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3987 s2.2 (iprivate), s6.1.
    """
    for p in _problems(ctx, "private-use-outside-query"):
        ch = ctx.value[p.start:p.end]
        enc = percent_encode(ch)
        yield ctx.report(p.start, p.end,
                         "%s is a private-use character, allowed only in the query (found in the %s)"
                         % (describe(ch), p.component),
                         [ctx.replace("Percent-encode as %s (unsafe)" % enc, p.start, p.end, enc, False)])


@rule(name="invalid-scheme", code="IRI004", family="syntax", severity="error", fast_path_silent=True)
def invalid_scheme(ctx):
    """A scheme that breaks the grammar.

    ## What it does
    Flags a scheme that does not start with an ASCII letter or holds
    characters other than letters, digits, ``+``, ``-`` and ``.``.

    ## Why
    Parsers split such a reference differently: one reads a scheme, another
    a relative path, so the link leads to different places.

    ## Example
    ``1http://example.org/``, ``ht_tp://example.org/``

    ## Fix safety
    No fix: the intended scheme cannot be guessed.

    ## Reference
    RFC 3986 s3.1, RFC 3987 s2.2.
    """
    for p in _problems(ctx, "invalid-scheme"):
        yield ctx.report(p.start, p.end, p.message)


@rule(name="invalid-port", code="IRI005", family="syntax", severity="error", fast_path_silent=True,
      templates="literal-authority")
def invalid_port(ctx):
    """A port that is not a number from 0 to 65535.

    ## What it does
    Flags a port with characters other than ASCII digits, or beyond 65535.

    ## Why
    The link cannot be followed; it is usually a typo or a mangled host.

    ## Example
    ``http://example.org:80a/``, ``http://example.org:70000/``

    ## Fix safety
    No fix.

    ## Reference
    RFC 3986 s3.2.3.
    """
    for p in _problems(ctx, "invalid-port"):
        yield ctx.report(p.start, p.end, p.message)


@rule(name="invalid-ip-literal", code="IRI006", family="syntax", severity="error", fast_path_silent=True,
      templates="literal-authority")
def invalid_ip_literal(ctx):
    """A bracketed host that is neither IPv6 nor IPvFuture.

    ## What it does
    Flags ``[...]`` hosts that are not a valid IPv6 address (RFC 4291
    text form) or an IPvFuture literal, and a missing ``]``.

    ## Why
    Clients reject or misparse them.  Zone identifiers (``%25eth0``) are
    not part of RFC 3986/3987 and only work in a few places.

    ## Example
    ``http://[1:2:3]/``, ``http://[::1/``

    ## Fix safety
    No fix.

    ## Reference
    RFC 3986 s3.2.2, RFC 3987 s2.2.
    """
    for p in _problems(ctx, "invalid-ip-literal"):
        yield ctx.report(p.start, p.end, p.message)
