"""HTML and XML: IRI attributes, and bare IRIs in text, comments and CDATA.

(One module, over 600 lines: one tokenizer pass with the attribute tables
it consults; the Markdown scanner reuses its attribute rules for raw HTML.)

A small linear tokenizer (``html.parser`` gives no offsets):

* Start tags are split into attributes (double-, single- and unquoted
  values).  Attributes that hold an IRI reference (:data:`IRI_ATTRIBUTES`,
  ``xmlns:*``) give the whole value -- relative references included, ASCII
  whitespace around it stripped, empty values skipped -- as one candidate;
  ``srcset`` gives each image URL, list attributes (``ping``, ``archive``,
  ``itemtype``, ``xsi:schemaLocation``) each token, and
  ``<meta http-equiv=refresh content="0; url=...">`` its URL.  Any other
  attribute value is searched for bare IRIs (``content="https://..."``).
* Character references are decoded with an offset map, so a finding on the
  U+202E that ``&#x202E;`` stands for points at those 8 characters.
* Text content is searched for bare IRIs (references decoded); so are
  comments, ``<![CDATA[...]]>``, doctypes and processing instructions (not
  decoded, as a parser would not).  In HTML, ``<script>``/``<style>`` and the
  other raw-text elements are scanned as text up to their end tag, so a
  ``<`` in script code is not taken for a tag.  The content of ``<script>``
  (JavaScript, or no type) and ``<style>`` is code, scanned by the code
  scanner's rules (string literals with their escapes decoded, comments,
  regex literals as templates), context ``script``: data, like a string in
  a source file (``DATA_CONTEXTS``); other text and attributes are prose.
* A start tag that runs to the end of the document (no ``>``, or an
  unterminated quote) is not a tag: the rest is read as text.  Browsers
  would drop it; reading it as text still finds the IRIs in it, and it keeps
  the tokenizer linear.
"""
from __future__ import annotations

import bisect
import re
from typing import Iterator, List, NamedTuple, Optional, Tuple

from ..chars import class_rx, ranges_of
from ._common import ASCII_SPACE, POSSESSIVE_QUANTIFIERS, Decoded, finalize, finalized
from ._decode import decode_charrefs
from .base import Candidate, CommentSyntax, Scanner
from .code import LANGUAGES, scan_code
from .text import find_iris, iter_iris, scan_decoded

#: Attributes whose whole value is one IRI reference (compared lowercased).
IRI_ATTRIBUTES = frozenset((
    "href", "src", "action", "cite", "data", "poster", "formaction",
    "background", "longdesc", "usemap", "manifest", "codebase", "icon",
    "profile", "itemid", "lowsrc", "dynsrc", "classid", "vocab",
    "xmlns", "xml:base", "rdf:about", "rdf:resource", "rdf:datatype",
    "xlink:href", "xlink:role", "xlink:arcrole",
    "xsi:nonamespaceschemalocation",
))
#: Attributes holding a whitespace-separated list of IRI references.
LIST_ATTRIBUTES = frozenset((
    "ping", "archive", "itemtype", "xsi:schemalocation"))
#: Attributes holding an image candidate list (URL + descriptor, commas).
SRCSET_ATTRIBUTES = frozenset(("srcset", "imagesrcset"))

_SPECIAL_ATTRIBUTES = IRI_ATTRIBUTES | LIST_ATTRIBUTES | SRCSET_ATTRIBUTES

#: HTML elements whose content is text up to their end tag; the value says
#: whether character references are decoded in it (RCDATA) or not.
_RAW_TEXT_ELEMENTS = {
    "script": False, "style": False, "xmp": False, "iframe": False,
    "noembed": False, "noframes": False, "plaintext": False,
    "textarea": True, "title": True,
}

#: Raw-text elements whose content is code, not text (context ``script``,
#: data: no fix of it is safe).
_CODE_ELEMENTS = frozenset(("script", "style"))

_HTML_TAG_NAME_RX = re.compile(r"[A-Za-z][^ \t\n\r\f/>]*")
# XML names start with a letter, "_", ":" or any non-ASCII character.
# (class_rx writes the first class so that it compiles in well under the
# ~3 ms that "[A-Za-z_:\u0080-\U0010ffff]" takes at import)
_XML_TAG_NAME_RX = re.compile(
    class_rx(ranges_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_:")
             + [(0x80, 0x10FFFF)]) + r"[^ \t\n\r\f/>]*")
# One attribute, with the space and stray "/" before it: name, then a
# double-quoted, single-quoted or unquoted value.  Names end at HTML
# whitespace only (not at U+3000 etc.), so any other character starts one;
# no name means the tag ends here (">") or runs out of text.
_ATTRIBUTE_RX = re.compile(
    r"""[ \t\n\r\f/]*(?:([^ \t\n\r\f/>][^ \t\n\r\f/>=]*)"""
    r"""(?:[ \t\n\r\f]*=[ \t\n\r\f]*"""
    r"""(?:"([^"]*)"|'([^']*)'|([^ \t\n\r\f>]*)))?)?""")
_REFRESH_URL_RX = re.compile(
    r"[ \t\n\r\f]*[0-9.]*[ \t\n\r\f]*[;,]?[ \t\n\r\f]*"
    r"(?:[Uu][Rr][Ll][ \t\n\r\f]*=[ \t\n\r\f]*)?")


class Attribute(NamedTuple):
    """One attribute of a start tag; ``start == -1`` when it has no value."""

    name: str  # lowercased
    start: int  # value span in the document, quotes excluded
    end: int


class Tag(NamedTuple):
    name: str  # lowercased
    start: int  # offset of "<"
    end: int  # offset after ">"
    attributes: List[Attribute]


def parse_start_tag(text: str, lt: int, hi: int, xml: bool = False
                    ) -> Tuple[Optional[Tag], int]:
    """Parse the start tag at ``text[lt] == "<"``, not reading past ``hi``.

    Returns ``(tag, scanned)``: ``tag`` is ``None`` when there is no tag
    there or it does not end before ``hi``; ``scanned`` is how far the parse
    read, so callers can avoid re-reading the same text.
    """
    rx = _XML_TAG_NAME_RX if xml else _HTML_TAG_NAME_RX
    m = rx.match(text, lt + 1, hi)
    if m is None:
        return None, lt + 1
    name = m.group().lower()
    p = m.end()
    attrs: List[Attribute] = []
    attr_match = _ATTRIBUTE_RX.match
    while True:
        m = attr_match(text, p, hi)
        p = m.end()
        # The last group that took part tells the case: none (no more
        # attributes), 1 (a name without value), 2/3/4 (a value).
        last = m.lastindex
        if last is None:
            if p < hi and text[p] == ">":
                return Tag(name, lt, p + 1, attrs), p + 1
            return None, hi  # the tag does not end before hi
        attr_name = m.group(1).lower()
        if last == 1:
            attrs.append(Attribute(attr_name, -1, -1))
            continue
        start, end = m.span(last)
        if last == 4 and start < end and text[start] in "'\"":
            return None, hi  # a quote that never closes
        attrs.append(Attribute(attr_name, start, end))


def _split_tokens(piece: Decoded, i: int, j: int, context: str
                  ) -> List[Candidate]:
    """Each whitespace-separated token of ``piece.value[i:j]``."""
    out = []
    v = piece.value
    while True:
        while i < j and v[i] in ASCII_SPACE:
            i += 1
        if i >= j:
            return out
        k = i
        while k < j and v[k] not in ASCII_SPACE:
            k += 1
        out.append(piece.candidate(i, k, context))
        i = k


def _srcset_urls(piece: Decoded, context: str) -> List[Candidate]:
    """The URLs of an image candidate list (HTML "parse a srcset")."""
    out = []
    v = piece.value
    n = len(v)
    i = 0
    while i < n:
        while i < n and (v[i] in ASCII_SPACE or v[i] == ","):
            i += 1
        if i >= n:
            break
        k = i
        while k < n and v[k] not in ASCII_SPACE:
            k += 1
        url_end = k
        if v[k - 1] == ",":
            # "a.png,b.png": the commas end the URL, no descriptors follow.
            while url_end > i and v[url_end - 1] == ",":
                url_end -= 1
        else:
            # Skip the descriptors ("2x", "100w") up to the next comma,
            # which may sit inside parentheses in future descriptor syntax.
            depth = 0
            while k < n and not (v[k] == "," and depth == 0):
                if v[k] == "(":
                    depth += 1
                elif v[k] == ")" and depth:
                    depth -= 1
                k += 1
        if url_end > i:
            out.append(piece.candidate(i, url_end, context))
        i = k
    return out


def _refresh_url(piece: Decoded, context: str) -> List[Candidate]:
    """The URL in a refresh ``content`` value: ``5; url='http://...'``."""
    v = piece.value
    i = _REFRESH_URL_RX.match(v).end()
    j = len(v)
    if i < j and v[i] in "\"'":
        close = v.find(v[i], i + 1)
        i += 1
        if close >= 0:
            j = close
    i, j = piece.strip_span(i, j)
    return [piece.candidate(i, j, context)] if i < j else []


#: Where template syntax starts (Jinja, Django, Liquid, Handlebars, Go
#: templates): ``{{ expression }}``, ``{% statement %}``, ``{# comment #}``.
#: (An attribute value holding such syntax stays a candidate: the engine
#: checks a templated reference with the bidi, look-alike and
#: normalization rules only.)
_TEMPLATE_OPEN_RX = re.compile(r"\{[{%#]")
_TEMPLATE_CLOSE = {"{": "}}", "%": "%}", "#": "#}"}


def template_regions(text: str) -> List[Tuple[int, int]]:
    """The spans of template syntax (``{% ... %}``, ``{{ ... }}``,
    ``{# ... #}``) in a document, sorted.  Markup inside them is a string
    of the template language (``{% set a = '<a href="' + url + '">' %}``),
    not a tag.  Linear: once a kind has no closer left, later openers of
    that kind are not searched again."""
    out: List[Tuple[int, int]] = []
    unclosed = set()
    pos = 0
    while True:
        m = _TEMPLATE_OPEN_RX.search(text, pos)
        if m is None:
            return out
        kind = text[m.start() + 1]
        close = -1 if kind in unclosed else text.find(_TEMPLATE_CLOSE[kind], m.end())
        if close < 0:
            unclosed.add(kind)
            pos = m.start() + 1
            continue
        out.append((m.start(), close + 2))
        pos = close + 2


def tag_candidates(text: str, tag: Tag, xml: bool = False) -> List[Candidate]:
    """Candidates in the attribute values of a start tag."""
    out: List[Candidate] = []
    refresh = False
    if tag.name == "meta":
        for a in tag.attributes:
            if a.name == "http-equiv" and a.start >= 0:
                refresh = text[a.start:a.end].strip(ASCII_SPACE).lower() == "refresh"
    for a in tag.attributes:
        if a.start < 0 or a.start == a.end:
            continue
        name = a.name
        if (name not in _SPECIAL_ATTRIBUTES and not name.startswith("xmlns:")
                and not (refresh and name == "content")
                and text.find(":", a.start, a.end) < 0
                and text.find("&", a.start, a.end) < 0):
            continue  # class="...", id="...": no colon, no IRI
        piece = decode_charrefs(text, a.start, a.end, attribute=True, xml=xml)
        if name in IRI_ATTRIBUTES or name.startswith("xmlns:"):
            i, j = piece.strip_span()
            if i < j:
                out.append(piece.candidate(i, j, "html-attr"))
        elif name in LIST_ATTRIBUTES:
            out.extend(_split_tokens(piece, 0, len(piece.value), "html-attr"))
        elif name in SRCSET_ATTRIBUTES:
            out.extend(_srcset_urls(piece, "html-attr"))
        elif refresh and name == "content":
            out.extend(_refresh_url(piece, "html-attr"))
        elif piece.offsets is not None or ":" in piece.value:
            out.extend(scan_decoded(piece, "bare"))
    return out


def _text_candidates(text: str, lo: int, hi: int, xml: bool, decode: bool,
                     context: str = "bare") -> List[Candidate]:
    if lo >= hi or text.find(":", lo, hi) < 0 and text.find("&", lo, hi) < 0:
        return []
    if decode and text.find("&", lo, hi) >= 0:
        if text.find(":", lo, hi) < 0 and text.find("&#", lo, hi) < 0 \
                and text.find("&colon", lo, hi) < 0:
            return []  # no colon, not even an encoded one: no IRI
        return scan_decoded(decode_charrefs(text, lo, hi, xml=xml), context)
    return find_iris(text, lo, hi, context)


#: ``<script type=...>`` values whose content is JavaScript (HTML's
#: "JavaScript MIME type essence match", plus "module"); no type is one too.
_JS_TYPES = frozenset((
    "", "module", "text/javascript", "application/javascript", "application/ecmascript",
    "application/x-ecmascript", "application/x-javascript", "text/ecmascript",
    "text/javascript1.0", "text/javascript1.1", "text/javascript1.2", "text/javascript1.3",
    "text/javascript1.4", "text/javascript1.5", "text/jscript", "text/livescript",
    "text/x-ecmascript", "text/x-javascript", "text/babel", "text/jsx"))


def _code_syntax(text: str, tag: Tag) -> Optional[str]:
    """The code language of a ``<script>`` or ``<style>`` element's content
    ("javascript", "css"), or ``None`` (a data block such as
    ``type="text/template"`` or JSON is searched as text)."""
    if tag.name == "style":
        return "css"
    for a in tag.attributes:
        if a.name == "type":
            value = text[a.start:a.end].strip().lower() if a.start >= 0 else ""
            return "javascript" if value.split(";")[0].strip() in _JS_TYPES else None
    return "javascript"


def _code_candidates(text: str, lo: int, hi: int, language: str) -> List[Candidate]:
    """Candidates in the code of a ``<script>``/``<style>`` element: its
    string literals (escapes decoded) and comments, as the code scanner
    finds them, at their offsets in the document.  All keep the ``script``
    context (data: no fix of code is safe)."""
    if lo >= hi or text.find(":", lo, hi) < 0 and text.find("\\", lo, hi) < 0:
        return []
    out: List[Candidate] = []
    for c in scan_code(text[lo:hi], LANGUAGES[language]):
        offsets = None if c.offsets is None else [o + lo for o in c.offsets]
        joined = None if c.joined_ends is None else {k: e + lo for k, e in c.joined_ends.items()}
        out.append(Candidate(c.start + lo, c.end + lo, c.value, offsets, "script",
                             c.after_backslash, c.template, joined))
    return out


def _find_end_tag(text: str, name: str, pos: int) -> int:
    """Offset of ``</name`` (any case) at or after ``pos``, or -1."""
    rx = _END_TAG_RX.get(name)
    if rx is None:
        rx = _END_TAG_RX[name] = re.compile(
            "</" + re.escape(name) + r"(?=[\s/>])", re.IGNORECASE)
    m = rx.search(text, pos)
    return m.start() if m else -1


_END_TAG_RX: dict = {}

# A start tag that may hold an IRI: an IRI attribute by name, a colon
# (schemes, xmlns:*, rdf:*) or an "&" (an encoded colon).  Any other tag
# (<p>, <div class="x">, <td>) is skipped without tokenizing it: most tags
# of a document are like that, and tokenizing them was most of the time.
# (Matched against the lowercased tag: a case-insensitive regex is several
# times slower in CPython.)
_MAY_HOLD_IRI_RX = re.compile(
    r"[:&]|\b(?:href|src|action|cite|data|poster|formaction|background|longdesc|usemap"
    r"|manifest|codebase|icon|profile|itemid|lowsrc|dynsrc|classid|vocab|ping|archive"
    r"|itemtype|srcset|imagesrcset|content|xmlns)\b")
_PLAIN_TAG_NAME_RX = re.compile(r"[A-Za-z][A-Za-z0-9-]*")


# -- Fast path: skip, with one regex match, a run of markup that cannot give
# a candidate.  Visiting every tag in Python was most of a run's time on
# HTML documentation; most tags (<p>, <td class="x">, </div>) and most text
# between them hold nothing.  A run is a sequence of units, each some text
# that holds no IRI (no "&", no "<" that starts markup, and only colons that
# ``find_iris`` cannot anchor on), then one piece of markup that gives no
# candidate and ends where the tokenizer would end it:
#
# * an end tag, or a comment, doctype or processing instruction without an
#   anchoring colon;
# * a start tag whose attributes are written in the plain form (ASCII names,
#   quoted or unquoted values, whitespace between them) with no IRI
#   attribute name (nor ``content``, ``xmlns:*``), no "&" in values, and only
#   non-anchoring colons; not <meta> and, in HTML, not a raw-text element.
#
# Anything else ends the run, and the tokenizer below handles it exactly as
# before; so the fast path can only be stricter than the tokenizer, never
# different (tests/test_scanner_fast_paths.py compares both on generated
# markup).
def _ascii_words_rx(words, end: str) -> str:
    """A regex for any of ``words`` (ASCII, any case) followed by ``end``,
    written as a trie: the engine tries one branch per letter instead of
    every word (measured ~10% of the whole scan on HTML).

    The letters are matched ASCII-only case-insensitively (``(?ai:...)``:
    not "\u017f" for "s" nor "\u212a" for "k", as the tokenizer lowercases
    names) and ``end`` is written once after the trie, not at each word's
    leaf: both halve the compile time of the fast path's regexes (paid at
    a run's first document) and scan as fast as ``[sS]`` classes.  Only one
    word can match before ``end`` when ``end`` refuses the words' own
    characters, so moving it out of the trie changes no match."""
    tree: dict = {}
    for w in words:
        node = tree
        for ch in w.lower():
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alts = [re.escape(ch) + emit(node[ch]) if ch else "" for ch in sorted(node)]
        return alts[0] if len(alts) == 1 else "(?:%s)" % "|".join(alts)
    return "(?ai:%s)%s" % (emit(tree), end)


#: Attribute names that hold no IRI and are the commonest in real markup
#: (``class`` alone is about half of all attributes in HTML documentation):
#: the fast path tries them as whole words before the slower "any name but an
#: IRI attribute" test.
_COMMON_PLAIN_ATTRIBUTES = (
    "class", "id", "title", "style", "rel", "name", "type", "alt", "align",
    "valign", "role", "accesskey", "lang", "width", "height", "colspan",
    "rowspan", "target", "dir", "tabindex", "method", "value", "for",
    "summary", "scope", "border", "charset", "hidden", "checked",
    "disabled", "translate", "placeholder", "viewbox", "fill", "stroke",
    "transform", "d", "x", "y")


#: The commonest elements of HTML documentation (``span``, ``a``, ``code``
#: and ``div`` are two thirds of all start tags), none of them special to
#: the scanner.
_COMMON_PLAIN_ELEMENTS = (
    "span", "a", "code", "div", "li", "p", "em", "td", "strong", "dt", "ul",
    "tr", "dd", "pre", "dl", "h1", "h2", "h3", "h4", "h5", "h6", "img", "th",
    "br", "table", "section", "col", "body", "html", "head", "link", "ol",
    "b", "i", "tt", "kbd", "var", "sup", "sub", "small", "hr", "nav",
    "tbody", "thead", "colgroup", "blockquote", "input", "label", "form",
    "button", "g", "path", "rect", "circle", "svg", "text", "tspan", "use")


def _numbers_rx(values, form: str) -> str:
    """A short regex for exactly ``values`` written in ``form`` ("%d", "%x"),
    without leading zeros: one character class of last digits per prefix
    (the pattern is repeated many times in the fast path's regexes, whose
    compile time is paid at the first HTML document)."""
    groups: dict = {}
    for n in values:
        digits = form % n
        groups.setdefault(digits[:-1], []).append(digits[-1])
    return "|".join(prefix + (last[0] if len(last) == 1 else "[%s]" % "".join(last))
                    for prefix, last in sorted(groups.items()))


def _harmless_reference_rx() -> str:
    """Character references whose decoding cannot give an IRI anchor.

    ``find_iris`` anchors on an ASCII ":" followed by "//" or preceded by a
    scheme of ASCII letters; a reference decoding to anything but an ASCII
    letter, digit, "+", "-", ".", ":" or "/" can neither be nor complete
    one, and a reference the decoder leaves as text ends with ";".  So text
    and attribute values holding only such references (``&#160;``,
    ``&quot;``, ``&gt;``: common in code listings) give no candidate when
    they have no anchoring colon, and the fast path may skip them.  Checked
    against the decoder in tests/test_scanner_fast_paths.py.
    """
    from html.entities import html5

    dangerous = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                          "0123456789+-.:/")
    bad_names = sorted(name[:-1] for name, value in html5.items()
                       if name.endswith(";") and any(c in dangerous for c in value))
    # Every legacy name (no ";") decodes to a harmless character: a prefix
    # decoded that way leaves the rest of the name as text, ending in ";".
    assert not any(c in dangerous for name, value in html5.items()
                   if not name.endswith(";") for c in value)
    harmless_ascii = [n for n in range(128) if chr(n) not in dangerous]
    decimal = _numbers_rx(harmless_ascii, "%d")
    hexadecimal = _numbers_rx(harmless_ascii, "%x")
    return ("&(?:"
            "(?!(?:%s);)[A-Za-z][A-Za-z0-9]{0,40}"
            # numeric: 0 and any value from 128 up decode to non-ASCII
            # (U+FFFD, windows-1252 or the code point itself); below 128 only
            # the harmless ASCII ones, written without leading zeros
            "|#(?:%s|12[89]|1[3-9][0-9]|[2-9][0-9][0-9]|[1-9][0-9]{3,7})"
            "|#[xX](?:(?i:%s)|[89a-fA-F][0-9a-fA-F]|[1-9a-fA-F][0-9a-fA-F]{2,7})"
            ");") % ("|".join(bad_names), decimal, hexadecimal)


def _fast_path_rxs(xml: bool) -> Tuple["re.Pattern[str]", "re.Pattern[str]"]:
    """The skip regex and the plain-IRI-tag regex of HTML or XML."""
    from .text import _COLON_RX

    # A colon find_iris does not anchor on, written colon first so that re
    # rules the alternative out by its first character.
    assert _COLON_RX.pattern.startswith(":")
    safe_colon = ":(?!(?i:%s))" % _COLON_RX.pattern[1:]
    reference = _harmless_reference_rx()
    words = _SPECIAL_ATTRIBUTES | {"xmlns"}
    name_char = "[A-Za-z0-9_.:@-]"
    not_name_char = "(?!%s)" % name_char

    def attr_name_rx(excluded) -> str:
        # Names are ASCII here, so an ASCII-only case-insensitive test is
        # exact.  The common names first, as whole words (atomic: a common
        # name that the rest of the attribute does not fit is not retried
        # as "any other name", which would fail the same way).
        return ("(?>%s|(?!%s|[Xx][Mm][Ll][Nn][Ss]:)[A-Za-z_:@]%s*+)"
                % (_ascii_words_rx(_COMMON_PLAIN_ATTRIBUTES, not_name_char),
                   _ascii_words_rx(excluded, not_name_char), name_char))

    value_char = "(?:[^%s&:<]++|" + safe_colon + "|" + reference + ")"
    value = ('(?:"%s*+"|\'%s*+\'|%s++)' % (
        value_char % '"', value_char % "'",
        "(?:[^ \\t\\n\\r\\f>\"'<&:=`]++|%s|%s)" % (safe_colon, reference)))
    ws = "[ \\t\\n\\r\\f]"
    attribute = "%s++%s(?:%s*+=%s*+%s)?" % (ws, attr_name_rx(words), ws, ws, value)
    excluded = ["meta"] + ([] if xml else list(_RAW_TEXT_ELEMENTS))
    not_excluded = "(?!%s)" % _ascii_words_rx(excluded, not_name_char)
    # The commonest element names first, as whole words (as for attributes).
    tag_name = "(?>%s|%s[A-Za-z]%s*+)" % (
        _ascii_words_rx(_COMMON_PLAIN_ELEMENTS, not_name_char), not_excluded, name_char)
    # (each markup alternative below is written without its "<", which they
    # all share: re then picks the alternative by the character after it)
    start_tag = "%s(?:%s)*+%s*+/?>" % (tag_name, attribute, ws)
    # <meta> holds an IRI only as <meta http-equiv=refresh content="0; url=...">
    # (tag_candidates): without an http-equiv="refresh", its content is an
    # ordinary attribute.  (The tokenizer takes the last http-equiv; this
    # stops at any "refresh" one, which can only be stricter.)
    refresh = "[Rr][Ee][Ff][Rr][Ee][Ss][Hh]"
    not_refresh_value = ('(?:"(?!%s*+%s%s*+")%s*+"|\'(?!%s*+%s%s*+\')%s*+\'|(?!%s(?![^ \\t\\n\\r\\f>]))'
                         "(?:[^ \\t\\n\\r\\f>\"'<&:=`]++|%s|%s)++)" % (
                             ws, refresh, ws, value_char % '"', ws, refresh, ws, value_char % "'",
                             refresh, safe_colon, reference))
    http_equiv = "[Hh][Tt][Tt][Pp]-[Ee][Qq][Uu][Ii][Vv]%s" % not_name_char
    meta_attribute = "%s++(?:%s(?:%s*+=%s*+%s)?|%s(?:%s*+=%s*+%s)?)" % (
        ws, http_equiv, ws, ws, not_refresh_value,
        attr_name_rx(words | {"http-equiv"}), ws, ws, value)
    meta_tag = "[Mm][Ee][Tt][Aa]%s(?:%s)*+%s*+/?>" % (not_name_char, meta_attribute, ws)
    # "<" that the tokenizer reads as text: not followed by a tag name, "!",
    # "/" or "?".
    name_start = "A-Za-z_:\\u0080-\\U0010ffff" if xml else "A-Za-z"
    # Text without candidates: colons that anchor nothing, and "&" only in
    # references that cannot make one (also allowing any "&" when the text
    # has no colon at all was measured slower: the text is then scanned
    # twice).
    # (unrolled: the common run of plain text, then any number of special
    # characters each followed by another run)
    text_unit = "[^<:&]*+(?:(?:%s|<(?![%s!/?])|%s)[^<:&]*+)*+" % (safe_colon, name_start, reference)
    plain_body = "(?:[^:>]++|%s)*+" % safe_colon
    markup = "<(?:%s)" % "|".join((
        "/[^>]*+>",
        start_tag,
        meta_tag,
        "!--(?:[^:-]++|-(?!->)|%s)*+-->" % safe_colon,
        "!(?!--|\\[CDATA\\[)%s>" % plain_body,
        "\\?%s>" % plain_body,
    ))
    skip = re.compile("(?:%s(?:%s))*+" % (text_unit, markup))

    # The commonest tag that does give candidates: the same plain form, with
    # up to three IRI attributes (IRI_ATTRIBUTES, xmlns:*) whose values hold
    # no "&"; each gives its whole value, as tag_candidates would.  The
    # names are matched ASCII-only, as the tokenizer lowercases them (re's
    # IGNORECASE would also take "\u017frc" for "src").  Group ``v<k>`` is
    # the k-th value with its quotes.
    iri_names = IRI_ATTRIBUTES

    def iri_attribute(k: int) -> str:
        return ("%s++(?:%s|[Xx][Mm][Ll][Nn][Ss]:%s*+)%s*+=%s*+"
                "(?P<v%d>\"[^\"&]*+\"|'[^'&]*+'|[^ \t\n\r\f>\"'&][^ \t\n\r\f>&]*+)"
                % (ws, _ascii_words_rx(iri_names, not_name_char), name_char,
                   ws, ws, k))
    plain_attributes = "(?:%s)*+" % attribute
    slots = ""
    for k in (3, 2, 1):
        slots = "(?:%s%s%s)?" % (iri_attribute(k), plain_attributes, slots)
    iri_tag = re.compile("%s<%s%s%s%s*+/?>" % (
        text_unit, tag_name, plain_attributes, slots, ws))
    return skip, iri_tag


#: Whether the fast path is used (see POSSESSIVE_QUANTIFIERS).
FAST_MARKUP = POSSESSIVE_QUANTIFIERS

#: xml -> (skip regex, IRI-tag regex), compiled at the first document of
#: that kind (each pair costs ~20 ms to compile).
_FAST_RXS: dict = {}


def fast_path_rxs(xml: bool) -> Tuple["re.Pattern[str]", "re.Pattern[str]"]:
    """The skip and IRI-tag regexes of HTML (``xml=False``) or XML."""
    pair = _FAST_RXS.get(xml)
    if pair is None:
        pair = _FAST_RXS[xml] = _fast_path_rxs(xml)
        # _iri_tag_candidates reads the value groups by number: the same in
        # both kinds
        assert tuple(pair[1].groupindex["v%d" % k] for k in (1, 2, 3)) == _IRI_VALUE_GROUPS
    return pair


#: Group numbers of each IRI attribute slot's value (``v1``..``v3``): the
#: only groups of the IRI-tag regex, in order.
_IRI_VALUE_GROUPS = (1, 2, 3)


def _iri_tag_candidates(m: "re.Match[str]", text: str, out: List[Candidate]) -> None:
    """The candidates of a tag matched by an IRI-tag regex (fast_path_rxs)."""
    regs = m.regs  # every group's span at once
    for g in _IRI_VALUE_GROUPS:
        a, b = regs[g]
        if a < 0:
            return  # no more IRI attributes
        if text[a] in "\"'":  # a quoted value: the span without its quotes
            a += 1
            b -= 1
        while a < b and text[a] in ASCII_SPACE:
            a += 1
        while b > a and text[b - 1] in ASCII_SPACE:
            b -= 1
        if a < b:
            out.append(Candidate(a, b, text[a:b], None, "html-attr"))


def scan_markup(text: str, xml: bool = False) -> List[Candidate]:
    """All candidates in an HTML (``xml=False``) or XML document."""
    return _scan_markup(text, xml, fast=FAST_MARKUP)


def _scan_markup(text: str, xml: bool, fast: bool) -> List[Candidate]:
    """``scan_markup``; ``fast=False`` tokenizes every piece of markup (the
    reference the fast path is tested against)."""
    return finalize(list(_markup(text, xml, fast)))


def _markup(text: str, xml: bool, fast: bool) -> Iterator[Candidate]:
    """The candidates of ``_scan_markup`` before ``finalize``: in document
    order (the markup is read left to right), found as they are asked for."""
    n = len(text)
    skip_run = iri_tag = None
    templates: List[Tuple[int, int]] = []
    if not xml and _TEMPLATE_OPEN_RX.search(text) is not None:
        templates = template_regions(text)
    if templates:
        fast = False  # the fast path's regexes do not know template syntax
    template_starts = [t[0] for t in templates]
    if fast:
        skip_rx, iri_tag_rx = fast_path_rxs(xml)
        skip_run, iri_tag = skip_rx.match, iri_tag_rx.match
    text_start = 0  # start of the pending run of text content
    pos = 0
    while True:
        if skip_run is not None and pos == text_start:
            while True:
                pos = text_start = skip_run(text, pos).end()
                m = iri_tag(text, pos)
                if m is None:
                    break
                found: List[Candidate] = []
                _iri_tag_candidates(m, text, found)
                yield from found
                pos = text_start = m.end()
        lt = text.find("<", pos)
        if lt < 0:
            break
        if templates:
            k = bisect.bisect_right(template_starts, lt) - 1
            if k >= 0 and lt < templates[k][1]:
                pos = templates[k][1]  # text of the template: read as text
                continue
        after = text[lt + 1:lt + 2]
        if after == "!" and text.startswith("<!--", lt):
            yield from _text_candidates(text, text_start, lt, xml, True)
            close = text.find("-->", lt + 4)
            body_end = close if close >= 0 else n
            yield from iter_iris(text, lt + 4, body_end, "comment")
            pos = text_start = body_end + 3 if close >= 0 else n
            continue
        if after == "!" and text.startswith("<![CDATA[", lt):
            yield from _text_candidates(text, text_start, lt, xml, True)
            close = text.find("]]>", lt + 9)
            body_end = close if close >= 0 else n
            yield from iter_iris(text, lt + 9, body_end)
            pos = text_start = body_end + 3 if close >= 0 else n
            continue
        if after == "!" or after == "?":
            # Doctype, processing instruction or bogus comment: their quoted
            # system identifiers and pseudo-attributes hold IRIs; the quotes
            # end them.
            yield from _text_candidates(text, text_start, lt, xml, True)
            close = text.find(">", lt + 2)
            body_end = close if close >= 0 else n
            yield from iter_iris(text, lt + 2, body_end)
            pos = text_start = body_end + 1 if close >= 0 else n
            continue
        if after == "/":
            close = text.find(">", lt + 2)
            if close < 0:
                break  # the rest is text
            if lt > text_start:
                yield from _text_candidates(text, text_start, lt, xml, True)
            pos = text_start = close + 1
            continue
        if not xml:
            skip = _plain_tag_end(text, lt)
            if skip > 0:
                if lt > text_start:
                    yield from _text_candidates(text, text_start, lt, xml, True)
                pos = text_start = skip
                continue
        tag, scanned = parse_start_tag(text, lt, n, xml)
        if tag is None:
            if scanned >= n:
                break  # an unterminated tag: the rest is text
            pos = lt + 1
            continue
        if lt > text_start:
            yield from _text_candidates(text, text_start, lt, xml, True)
        if tag.attributes:
            yield from tag_candidates(text, tag, xml)
        pos = text_start = tag.end
        if not xml and tag.name in _RAW_TEXT_ELEMENTS:
            close = _find_end_tag(text, tag.name, tag.end)
            body_end = close if close >= 0 else n
            syntax = _code_syntax(text, tag) if tag.name in _CODE_ELEMENTS else None
            if syntax is not None:
                yield from _code_candidates(text, tag.end, body_end, syntax)
            else:
                yield from _text_candidates(text, tag.end, body_end, xml,
                                            _RAW_TEXT_ELEMENTS[tag.name],
                                            "script" if tag.name in _CODE_ELEMENTS else "bare")
            pos = text_start = body_end
    yield from _text_candidates(text, text_start, n, xml, True)


def _plain_tag_end(text: str, lt: int) -> int:
    """End of the start tag at ``lt`` when it surely holds no IRI, else 0.

    Sure means: its quotes are balanced before the first ">" (so that ">"
    ends it), it is not a raw-text element, and nothing in it may start an
    IRI.  Anything else goes through the full tokenizer.
    """
    m = _PLAIN_TAG_NAME_RX.match(text, lt + 1)
    if m is None:
        return 0
    gt = text.find(">", m.end())
    if gt < 0 or gt - lt > 4096:
        return 0
    name = m.group().lower()
    if name in _RAW_TEXT_ELEMENTS or name == "meta":
        return 0
    rest = text[m.end():gt]
    if "=" not in rest:
        return gt + 1 if ":" not in rest and "&" not in rest else 0
    if rest.count('"') % 2 or rest.count("'") % 2:
        return 0
    if _MAY_HOLD_IRI_RX.search(rest.lower()):
        return 0
    return gt + 1


class HtmlScanner(Scanner):
    """HTML documents (and XHTML read leniently)."""

    name = "html"
    comments = (CommentSyntax("<!--", "-->"),)

    def scan(self, text: str) -> Iterator[Candidate]:
        return finalized(_markup(text, False, FAST_MARKUP))


class XmlScanner(Scanner):
    """XML documents: SVG, RDF/XML, OWL, Atom, XSD, ..."""

    name = "xml"
    comments = (CommentSyntax("<!--", "-->"),)

    def scan(self, text: str) -> Iterator[Candidate]:
        return finalized(_markup(text, True, FAST_MARKUP))
