"""Hypothesis strategies for the fuzz suite: valid IRIs, nearly valid IRIs
(mutations of valid ones) and whole documents of every format with IRIs
embedded the way each format writes them (character references in HTML,
``\\u`` escapes in JSON, ``<...>`` in Turtle...).

Extends :mod:`iri_strategies` (``tests/iri_strategies.py``): the IRIs come
from its grammar generator, the mutations are added here.
"""
from __future__ import annotations

import json
import re

from hypothesis import strategies as st

from irilint import nfc, parse, remove_dot_segments, to_uri
from irilint.convert import decode_unreserved, uppercase_percent_encodings
from iri_strategies import _STRAY_PERCENT_RE, HOST_LABELS, decoded_host, UNICODE_CHARS, iri_reference

#: Every document format the scanners know, with a file name that selects it.
FORMATS = {
    "text": "doc.txt",
    "markdown": "doc.md",
    "html": "doc.html",
    "xml": "doc.xml",
    "rst": "doc.rst",
    "json": "doc.json",
    "yaml": "doc.yaml",
    "toml": "doc.toml",
    "turtle": "doc.ttl",
    "python": "doc.py",
    "c": "doc.c",
    "shellscript": "doc.sh",
}

# Characters that matter to the scanners and the rules: delimiters of every
# format, bidi controls, invisibles, look-alikes, combining marks, quotes,
# escapes, surrogates and noncharacters.
TRICKY = list(
    "<>\"'`()[]{}|\\^ \t\r\n:/?#@!$&*+,;=%.-_~"
) + [
    "\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c",  # bidi
    "\u200b", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u034f",  # invisible
    "\u0301", "\u0308", "\u0345",  # combining
    "\uff0f", "\u2215", "\u2044", "\uff1a", "\u3002", "\uff0e", "\u2024",  # look-alike delimiters
    "\u0430", "\u0440", "\u04cf", "\u03bf", "\u0131", "\u017f", "K",  # look-alike letters
    "\ufb01", "\u2126", "\u00b5", "\u1e9e", "\u0130",  # compatibility, case
    "\ud800", "\udfff", "\ufffe", "\U0010ffff", "\ue000",  # surrogates, nonchars, private
    "\x00", "\x7f", "\x85", "\u2028", "\u2029", "\x0b", "\x0c",  # controls, line ends
    "&#x202E;", "&amp;", "&#0;", "&#1114112;", "&bogus;", "\\u202e", "\\ud800", "\\x", "\\",
    "xn--", "XN--", "xn--zz", "xn--80ak6aa92e", "%", "%2", "%zz", "%25", "%E2%80%AE",
    "%C0%AF", "%FF", "%2E%2E", "irilint: ignore", "irilint: ignore-file[IRI1]",
    "http://", "https://", "://", "mailto:", "urn:", "data:",
    # prose punctuation, written and percent-encoded: it ends links in text
    "\u3002", "\u3001", "\uff08", "\uff09", "\u300c", "\u201d", "\u2026", "\u00bb",
    "%E3%80%82", "%EF%BC%88", "%EF%BC%89", "%E2%80%9D", "%C2%BB", "%2E", "%7E", "%5F", "%29",
    # right-to-left text, written and percent-encoded
    "\u05e9", "\u0645", "\u0661", "%D7%A9", "%D9%85", "%D9%A1",
]


_ESCAPE_SPLIT_RE = re.compile(r"(%[0-9A-Fa-f]{2})")
_SCHEME_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*\Z")
_DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}


def _host_unreserved_decoded(iri: str) -> str:
    # "%2E" in a host is "." (RFC 3986 s6.2.2.2), so it splits labels before
    # IDNA maps each one, as it does once to_iri has decoded it
    h = parse(iri).host
    if h is None or "%" not in iri[h.start:h.end]:
        return iri
    return iri[:h.start] + decode_unreserved(iri[h.start:h.end]) + iri[h.end:]


def uri_key(iri: str) -> str:
    """``iri_strategies.uri_key`` for nearly valid IRIs too: the URI an IRI
    maps to, up to RFC 3986 s6.2.2/s6.2.3 equivalence after NFC.

    The differences: a "scheme" that breaks the grammar (``%Ahttp:``) is
    not a scheme, so it is not case-folded (case-folding ``%25A`` to
    ``%25a`` would change the octets); the host is case-folded after its
    unreserved escapes are decoded (``%41`` is ``A`` is ``a``); a port is
    a number (``:080`` is ``:80``).
    """
    # A stray "%" is the percent sign it stands for, which "%25" encodes:
    # to_uri keeps it as written (RFC 3987 s3.1), so the key spells it
    # "%25" itself, as iri_strategies.uri_key does.
    iri = decoded_host(_host_unreserved_decoded(_STRAY_PERCENT_RE.sub("%25", iri)))
    pieces = _ESCAPE_SPLIT_RE.split(iri)
    u = to_uri("".join(p if i % 2 else nfc(p) for i, p in enumerate(pieces)))
    ref = parse(u)
    out = []
    scheme = ref.get("scheme")
    if scheme is not None:
        out.append((scheme.lower() if _SCHEME_RE.match(scheme) else scheme) + ":")
    if ref.authority is not None:
        out.append("//")
        if ref.userinfo is not None:
            out.append(ref.get("userinfo") + "@")
        # a reg-name is case-insensitive once its unreserved escapes are
        # decoded ("%41" is "A" is "a")
        out.append(decode_unreserved(ref.get("host") or "").lower())
        port = ref.get("port")
        if port and port.isascii() and port.isdigit():
            port = str(int(port))  # ":080" is port 80 (as for every URL parser)
        if port and port != _DEFAULT_PORTS.get((scheme or "").lower()):
            out.append(":" + port)
    path = ref.get("path")
    if ref.scheme is not None or ref.authority is not None or path.startswith("/"):
        path = remove_dot_segments(path)
    out.append(path)
    if ref.query is not None:
        out.append("?" + ref.get("query"))
    if ref.fragment is not None:
        out.append("#" + ref.get("fragment"))
    return uppercase_percent_encodings(decode_unreserved("".join(out)))


def _replace_at(s: str, i: int, new: str, width: int = 1) -> str:
    return s[:i] + new + s[i + width:]


@st.composite
def mutated_iri(draw, base=None):
    """A valid IRI with one to three small mutations: a character changed,
    inserted or deleted, two components swapped, an escape broken, a
    component duplicated, the scheme or host damaged."""
    iri = draw(base if base is not None else iri_reference())
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from([
            "replace", "insert", "delete", "swap", "break-escape", "duplicate",
            "truncate", "case", "scheme", "host",
        ]))
        n = len(iri)
        i = draw(st.integers(0, max(n - 1, 0)))
        if kind == "replace" and n:
            iri = _replace_at(iri, i, draw(st.sampled_from(TRICKY)))
        elif kind == "insert":
            iri = iri[:i] + draw(st.sampled_from(TRICKY + UNICODE_CHARS)) + iri[i:]
        elif kind == "delete" and n:
            iri = _replace_at(iri, i, "")
        elif kind == "swap":
            # two components (split at a delimiter) change places
            for d in "/?#@:":
                parts = iri.split(d)
                if len(parts) > 2:
                    a = draw(st.integers(0, len(parts) - 1))
                    b = draw(st.integers(0, len(parts) - 1))
                    parts[a], parts[b] = parts[b], parts[a]
                    iri = d.join(parts)
                    break
            else:
                q, h = iri.find("?"), iri.find("#")
                if 0 <= h < q:
                    iri = iri[:h] + iri[q:] + iri[h:q]
                elif 0 <= q < h:
                    iri = iri[:q] + iri[h:] + iri[q:h]
        elif kind == "break-escape":
            p = iri.find("%")
            if p >= 0:
                iri = _replace_at(iri, p, draw(st.sampled_from(["%", "%G", "%%", "%2", "%\u00e9", ""])), 2)
            else:
                iri = iri[:i] + draw(st.sampled_from(["%", "%e", "%E2%80", "%C3", "%ZZ", "%%41"])) + iri[i:]
        elif kind == "duplicate" and n:
            j = draw(st.integers(i, n))
            iri = iri[:j] + iri[i:j] + iri[j:]
        elif kind == "truncate" and n:
            iri = iri[:max(i, 1)]
        elif kind == "case":
            iri = iri.swapcase()
        elif kind == "scheme":
            c = iri.find(":")
            iri = draw(st.sampled_from(["", "1http", "ht tp", "h\u0430ttp", "HTTP", "http:", "-a", "a" * 70])) + iri[max(c, 0):]
        elif kind == "host":
            iri = iri.replace("//", "//" + draw(st.sampled_from(
                ["xn--", "[", "[::1", "[v1.x]", "..", "a..b.", "\u3002", "%zz.", "user@", ":",
                 "xn--a.", draw(st.sampled_from(HOST_LABELS)) + "\u200d", "-a-."])), 1)
    return iri


def any_iri():
    """Valid or nearly valid IRIs."""
    return st.one_of(iri_reference(), mutated_iri())


# -- embedding an IRI into a document of a given format ----------------------


def html_charrefs(draw, s: str) -> str:
    """``s`` as an HTML/XML attribute value: ``&``, ``<`` and ``"`` escaped,
    other characters randomly written as decimal or hex character
    references (named for ``&``)."""
    out = []
    for ch in s:
        how = draw(st.integers(0, 9))
        if ch == "&":
            out.append(draw(st.sampled_from(["&amp;", "&#38;", "&#x26;"])))
        elif ch in "<\"":
            out.append("&#%d;" % ord(ch))
        elif how == 0:
            out.append("&#x%X;" % ord(ch))
        elif how == 1:
            out.append("&#%d;" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


def json_escapes(draw, s: str) -> str:
    """``s`` as the body of a JSON string: required escapes, plus random
    ``\\uXXXX`` (surrogate pairs for astral characters) and ``\\/``."""
    body = json.dumps(s, ensure_ascii=False)[1:-1]
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":  # keep json.dumps' escapes whole
            j = i + (6 if body[i + 1] == "u" else 2)
            out.append(body[i:j])
            i = j
            continue
        how = draw(st.integers(0, 5))
        if how == 0:
            out.append(json.dumps(ch, ensure_ascii=True)[1:-1] if ord(ch) > 0x7F else "\\u%04x" % ord(ch))
        elif how == 1 and ch == "/":
            out.append("\\/")
        else:
            out.append(ch)
        i += 1
    return "".join(out)


FILLER = st.sampled_from([
    "", "see ", "Text. ", "שלום ", "مرحبا ", "日本語", "\u202e", " (", ") ", "\n", "\r\n",
    "irilint: ignore ", "# irilint: ignore[IRI402]\n", "<!-- irilint: ignore -->", "x", "  ",
])


@st.composite
def embedded(draw, fmt: str, iri_strategy=None):
    """A document of format ``fmt`` with one to three IRIs written the way
    that format writes them, plus noise around them."""
    iri_strategy = iri_strategy if iri_strategy is not None else any_iri()
    pieces = []
    for _ in range(draw(st.integers(1, 3))):
        iri = draw(iri_strategy)
        pre, post = draw(FILLER), draw(FILLER)
        if fmt == "text":
            form = draw(st.sampled_from(["%s", "<%s>", "(%s)", "\"%s\"", "%s.", "「%s」"]))
            pieces.append(pre + " " + form % iri + " " + post)
        elif fmt == "markdown":
            form = draw(st.sampled_from([
                "[link](%s)", "[link](<%s>)", "<%s>", "%s", "![img](%s \"title\")",
                "[ref]: %s\n", "`%s`", "```\n%s\n```\n", "[a [b]](%s)", "[x](%s))",
            ]))
            # backslash escapes and entities, as authors write them; never in
            # code spans and blocks, where CommonMark decodes neither
            if "`" not in form and draw(st.booleans()):
                iri = "".join(
                    ("\\" + c if c in "()\\<>" and draw(st.booleans()) else
                     "&amp;" if c == "&" and draw(st.booleans()) else
                     "&#x%X;" % ord(c) if draw(st.integers(0, 15)) == 0 else c)
                    for c in iri)
            pieces.append(pre + " " + form % iri + " " + post)
        elif fmt in ("html", "xml"):
            attr = draw(st.sampled_from(["href", "src", "action", "xmlns", "data-x", "cite"]))
            q = draw(st.sampled_from(['"', "'"]))
            val = html_charrefs(draw, iri)
            if q == "'":
                val = val.replace("'", "&#39;")
            form = draw(st.sampled_from([
                "<a %s=%s%s%s>text</a>", "<img %s=%s%s%s/>", "<p>%s=%s%s%s</p>",
                "<!-- %s=%s%s%s -->", "<script>x=%s=%s%s%s</script>",
            ]))
            pieces.append(pre + form % (attr, q, val, q) + post)
        elif fmt == "rst":
            form = draw(st.sampled_from([
                "`link <%s>`_", "`link <%s>`__", ".. _target: %s\n", "%s", "``%s``",
                ".. image:: %s\n", ":ref:`%s`",
            ]))
            pieces.append(pre + " " + form % iri + " " + post)
        elif fmt == "json":
            key = draw(st.sampled_from(["href", "url", "$ref", "@id", "name", "homepageUrl"]))
            pieces.append('{"%s": "%s"}\n' % (key, json_escapes(draw, iri)))
        elif fmt == "yaml":
            key = draw(st.sampled_from(["url", "name", "- ", "homepage"]))
            style = draw(st.integers(0, 3))
            if style == 0:
                val = iri
            elif style == 1:
                val = "'" + iri.replace("'", "''") + "'"
            elif style == 2:
                val = json.dumps(iri, ensure_ascii=draw(st.booleans()))
            else:
                val = "# " + iri
            pieces.append(("%s: %s\n" % (key, val)) if key != "- " else "- %s\n" % val)
        elif fmt == "toml":
            key = draw(st.sampled_from(["url", "name", "homepage", '"a b"']))
            style = draw(st.integers(0, 3))
            if style == 0:
                val = json.dumps(iri, ensure_ascii=draw(st.booleans()))
            elif style == 1:
                val = "'%s'" % iri.replace("'", "")
            elif style == 2:
                val = '"""%s"""' % iri.replace('"', "")
            else:
                val = '""  # %s' % iri
            pieces.append("%s = %s\n" % (key, val))
        elif fmt == "turtle":
            form = draw(st.sampled_from([
                "<%s> <http://e.org/p> \"o\" .\n", "@prefix ex: <%s> .\n", "# %s\n",
                "ex:s ex:p \"%s\" .\n", "@base <%s> .\n",
            ]))
            pieces.append(pre + " " + form % iri + " " + post)
        elif fmt == "python":
            form = draw(st.sampled_from(["u = %r\n", "# %s\n", 'x = """%s"""\n', "s = f'{a}%s'\n", "b = rb'%s'\n"]))
            pieces.append(form % iri)
        elif fmt in ("c", "shellscript"):
            form = draw(st.sampled_from(['s = "%s";\n', "// %s\n", "/* %s */\n", "echo '%s'\n", "# %s\n"]))
            pieces.append(form % iri)
        else:  # pragma: no cover
            raise ValueError(fmt)
    return "".join(pieces)


def noisy_text():
    """Arbitrary Unicode text, biased towards what scanners look for."""
    return st.one_of(
        st.text(max_size=300),
        st.lists(st.one_of(st.sampled_from(TRICKY), st.text(max_size=8)), max_size=60).map("".join),
    )


@st.composite
def documents(draw):
    """(format, file name, text): any format, an embedded-IRI document
    or arbitrary text, sometimes both glued together."""
    fmt = draw(st.sampled_from(sorted(FORMATS)))
    kind = draw(st.integers(0, 3))
    if kind == 0:
        text = draw(noisy_text())
    elif kind == 1:
        text = draw(embedded(fmt)) + draw(noisy_text())
    else:
        text = draw(embedded(fmt))
    return fmt, FORMATS[fmt], text
