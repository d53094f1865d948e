"""Encodings that files declare in their own first (or last) bytes.

Each format says where its declaration goes and what it means; the file is
read the way its own tools read it:

* Python (PEP 263): a comment matching ``coding[:=]name`` on line 1, or on
  line 2 when line 1 is blank or a comment (this also takes the Emacs and
  Vim spellings, as CPython does).  Nothing else counts in Python.
* XML: the declaration ``<?xml version="1.0" encoding="name"?>``, which
  must be the very first bytes (XML 1.0 s4.3.3).  Any file starting with
  one is XML, whatever its name.
* HTML: the spec's prescan of the first 1024 bytes for ``<meta
  charset=...>`` or ``<meta http-equiv="Content-Type" content="...;
  charset=...">`` (HTML "prescan a byte stream to determine its
  encoding"), with labels resolved as the Encoding Standard resolves them
  (``iso-8859-1`` is windows-1252, ``shift_jis`` is Windows-31J, a UTF-16
  label means UTF-8, ...).  An XHTML file that begins with an XML
  declaration is read by that declaration.
* JSON, YAML and TOML are Unicode by definition: no declaration counts.
* Any other text: an Emacs ``-*- coding: name -*-`` on line 1 (line 2 after
  a ``#!`` line) or a Vim modeline (``vim: set fileencoding=name :``,
  ``vi: fenc=name``) on one of the first or last five lines.

A byte order mark wins over any declaration (as in the HTML and XML
specs); the caller looks for one first.  A declaration naming an encoding
Python does not know, or one that is not ASCII-compatible (the declaration
itself was read as ASCII), is an error: guessing would put wrong offsets
on every finding, and ``--fix`` would write the file in another encoding.
"""
from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

__all__ = ["DECODING_RULES", "Declaration", "DeclarationError", "codec_for", "find_declaration"]

#: Raised whenever the rules below read some file differently: the result
#: cache keys on it, so an entry made under other rules is never reused.
DECODING_RULES = 1


@dataclass(frozen=True)
class Declaration:
    """Where and how a file names its encoding."""

    #: the encoding's name as written in the file
    label: str
    #: 1-based line of the declaration
    line: int
    #: the declaring text as written (ASCII; shortened when long)
    text: str
    #: "python", "xml", "html", "emacs" or "vim": whose rules read it
    kind: str

    def describe(self) -> str:
        """``'# -*- coding: cp1251 -*-' on line 1``, for messages."""
        return "%r on line %d" % (self.text, self.line)


class DeclarationError(ValueError):
    """A declaration naming an encoding that cannot be used."""


# ---------------------------------------------------------------------------
# Encoding names

#: Encoding Standard labels (https://encoding.spec.whatwg.org/#names-and-labels)
#: that mean something else than Python's codec of that name, or that
#: Python does not know.  Other labels are looked up with codecs.lookup.
_WHATWG_LABELS: Dict[str, str] = {}
for _codec, _labels in (
    ("cp1252", "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 "
               "iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252 "
               "x-user-defined"),
    ("cp1254", "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 "
               "iso_8859-9:1989 l5 latin5 windows-1254 x-cp1254"),
    ("cp874", "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874"),
    ("gb18030", "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk gb18030"),
    ("cp932", "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis"),
    ("cp949", "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 "
              "ksc_5601 windows-949"),
    ("big5hkscs", "big5 big5-hkscs cn-big5 csbig5 x-x-big5"),
    ("iso8859_8", "csiso88598i iso-8859-8-i logical csiso88598e csisolatinhebrew hebrew iso-8859-8 "
                  "iso-8859-8-e iso-ir-138 iso8859-8 iso88598 iso_8859-8 iso_8859-8:1988 visual"),
    # The prescan turns a UTF-16 label into UTF-8: the page it was found
    # in was read as ASCII, so it cannot be UTF-16.
    ("utf-8", "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8 "
              "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le utf-16be unicodefffe"),
):
    for _label in _labels.split():
        _WHATWG_LABELS[_label] = _codec

#: Emacs coding system names Python does not know by that name.
_EMACS_NAMES = {
    "cyrillic-koi8": "koi8_r", "cyrillic-iso-8bit": "iso8859_5", "cyrillic-alternativnyj": "cp866",
    "japanese-shift-jis": "shift_jis", "japanese-iso-8bit": "euc_jp", "euc-japan": "euc_jp",
    "japanese-cp932": "cp932", "chinese-gbk": "gbk", "chinese-gb18030": "gb18030",
    "chinese-iso-8bit": "gb2312", "cn-gb": "gb2312", "chinese-big5": "big5", "cn-big5": "big5",
    "korean-iso-8bit": "euc_kr", "hebrew-iso-8bit": "iso8859_8", "greek-iso-8bit": "iso8859_7",
    "arabic-iso-8bit": "iso8859_6", "iso-latin-1": "latin_1", "iso-latin-2": "iso8859_2",
    "utf-8-emacs": "utf-8", "prefer-utf-8": "utf-8", "utf-8-with-signature": "utf-8",
    "mule-utf-8": "utf-8",
}
#: Emacs names that declare no particular encoding.
_EMACS_NO_ENCODING = frozenset({"undecided", "auto", "default"})
_EMACS_EOL_SUFFIX = re.compile(r"-(?:unix|dos|mac)\Z")

_NOT_FILE_ENCODINGS = frozenset({"raw-unicode-escape", "unicode-escape", "undefined", "idna", "punycode"})

_ASCII_PROBE = bytes(range(0x20, 0x7F)) + b"\t\n\r"


def _ascii_compatible(codec: str) -> bool:
    try:
        return _ASCII_PROBE.decode(codec) == _ASCII_PROBE.decode("ascii")
    except (UnicodeError, LookupError, ValueError, TypeError):
        return False  # "idna", "undefined", ...: no encoding of text files


def codec_for(declaration: Declaration) -> str:
    """The Python codec that reads what ``declaration`` declares.

    Raises :class:`DeclarationError` for an unknown encoding and for one
    the declaration itself could not have been written in.
    """
    label = declaration.label.strip().lower()
    if declaration.kind == "html" and label in _WHATWG_LABELS:
        return _WHATWG_LABELS[label]
    if declaration.kind == "emacs":
        label = _EMACS_EOL_SUFFIX.sub("", label)
        label = _EMACS_NAMES.get(label, label)
    if declaration.kind == "python":
        # CPython's get_normal_name: "utf-8-..." and "latin-1-..." variants.
        norm = label.replace("_", "-")
        if norm == "utf-8" or norm.startswith("utf-8-"):
            label = "utf-8"
        elif norm in ("latin-1", "iso-8859-1", "iso-latin-1") or norm.startswith(
                ("latin-1-", "iso-8859-1-", "iso-latin-1-")):
            label = "latin_1"
    try:
        info = codecs.lookup(label)
        # Transforms (rot13, base64, zlib) and escape decoders are codecs
        # but not encodings a file is written in.
        if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_FILE_ENCODINGS:
            raise LookupError(label)
        name = info.name
    except (LookupError, ValueError):  # ValueError: a NUL in the name
        raise DeclarationError("unknown encoding %r (declared by %s)"
                               % (declaration.label, declaration.describe())) from None
    if name == "utf-8-sig":
        name = "utf-8"  # the mark itself was looked for before: there is none
    if not _ascii_compatible(name):
        raise DeclarationError("encoding %r (declared by %s) cannot be the file's: the declaration "
                               "itself is ASCII, which %s does not read as ASCII"
                               % (declaration.label, declaration.describe(), name.upper()))
    return name


# ---------------------------------------------------------------------------
# Finding the declaration

_PEP263 = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
_BLANK_OR_COMMENT = re.compile(rb"^[ \t\f]*(?:#|\Z)")
# XMLDecl, or an external entity's TextDecl (XML 1.0 s4.3.1), whose
# version is optional.
_XML_DECL = re.compile(
    rb"<\?xml(?:[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(?:\"[^\"]*\"|'[^']*'))?"
    rb"[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(?:\"([A-Za-z][-\w.]*)\"|'([A-Za-z][-\w.]*)')")
_EMACS = re.compile(rb"-\*-(.*?)-\*-")
_EMACS_CODING = re.compile(rb"(?:^|;)[ \t]*coding[ \t]*:[ \t]*([^ \t;]+)", re.IGNORECASE)
# Vim: "vi:", "vim:" or "Vim:" at the start of a line or after a blank,
# "ex:" only after a blank, "vim" optionally with a version ("vim600:").
_VIM = re.compile(rb"(?:^|(?<=[ \t]))(?:vi|[vV]im[<=>]?\d*):|(?<=[ \t])ex:")
_VIM_SET = re.compile(rb"[ \t]*se(?:t)?[ \t]+((?:[^:\\]|\\.)*):")
_VIM_FENC = re.compile(rb"(?:^|[ \t:])(?:fileencoding|fenc)=([^ \t:]+)")
#: how many lines at each end of a file Vim reads modelines from
_VIM_MODELINES = 5
#: the HTML spec's prescan looks at this many bytes
_HTML_PRESCAN_BYTES = 1024
#: modelines are looked for in this many first bytes of a line (a
#: minified file's one line would otherwise be searched whole)
_LINE_CAP = 4096
#: the longest declaring text quoted in a message
_SHOWN = 80


def _shown(raw: bytes) -> str:
    text = raw.decode("ascii", "backslashreplace").strip()
    return text if len(text) <= _SHOWN else text[:_SHOWN - 3] + "..."


def _head_lines(data: bytes, count: int) -> List[bytes]:
    """The first ``count`` lines, without their ends, each cut at
    :data:`_LINE_CAP` bytes."""
    lines: List[bytes] = []
    pos = 0
    n = len(data)
    while len(lines) < count and pos < n:
        end = data.find(b"\n", pos)
        stop = n if end < 0 else end
        line = data[pos:min(stop, pos + _LINE_CAP)]
        lines.append(line[:-1] if line.endswith(b"\r") else line)
        pos = n if end < 0 else end + 1
    return lines


def _tail_lines(data: bytes, count: int) -> List[bytes]:
    """The last ``count`` lines, in order (a final line end ends the last
    line; it does not start another)."""
    lines: List[bytes] = []
    end = len(data) - 1 if data.endswith(b"\n") else len(data)
    while len(lines) < count and end > 0:
        start = data.rfind(b"\n", 0, end) + 1
        line = data[start:min(end, start + _LINE_CAP)]
        lines.append(line[:-1] if line.endswith(b"\r") else line)
        end = start - 1
    lines.reverse()
    return lines


def _python(data: bytes) -> Optional[Declaration]:
    for number, line in enumerate(_head_lines(data, 2), 1):
        m = _PEP263.match(line)
        if m:
            return Declaration(m.group(1).decode("ascii"), number, _shown(line), "python")
        if not _BLANK_OR_COMMENT.match(line):
            break  # line 2 counts only after a blank or comment line 1
    return None


def _xml(data: bytes) -> Optional[Declaration]:
    if not data.startswith(b"<?xml"):
        return None
    end = data.find(b"?>", 0, 1024)
    decl = data[:end + 2] if end >= 0 else data[:200]
    m = _XML_DECL.match(decl)
    if m is None:
        return None  # no encoding pseudo-attribute: UTF-8
    return Declaration((m.group(1) or m.group(2)).decode("ascii"), 1, _shown(decl), "xml")


def _emacs(data: bytes) -> Optional[Declaration]:
    # The lines that may hold one: line 1, and line 2 after a "#!" line.
    # Without "-*-" in them (most files) there is none: one C-level search
    # instead of the lines cut and searched.
    end = data.find(b"\n")
    if end >= 0 and data.startswith(b"#!"):
        end = data.find(b"\n", end + 1)
    if data.find(b"-*-", 0, len(data) if end < 0 else end) < 0:
        return None
    lines = _head_lines(data, 2)
    candidates = lines[:2] if lines and lines[0].startswith(b"#!") else lines[:1]
    for number, line in enumerate(candidates, 1):
        m = _EMACS.search(line)
        if m is None:
            continue
        c = _EMACS_CODING.search(m.group(1))
        if c is None:
            return None  # "-*- mode -*-", or variables without a coding
        label = c.group(1).decode("ascii", "backslashreplace")
        if _EMACS_EOL_SUFFIX.sub("", label.lower()) in _EMACS_NO_ENCODING:
            return None
        return Declaration(label, number, _shown(line), "emacs")
    return None


def _vim_in(line: bytes) -> Optional[bytes]:
    """The encoding a Vim modeline in ``line`` sets, if any."""
    m = _VIM.search(line)
    if m is None:
        return None
    rest = line[m.end():]
    s = _VIM_SET.match(rest)
    options = s.group(1) if s else rest
    f = _VIM_FENC.search(options)
    return f.group(1) if f else None


#: up to this size a file is searched whole for a modeline's text: that
#: costs less than finding its first and last lines
_SEARCHED_WHOLE = 4096


def _sets_fenc(data: bytes, start: int = 0, end: Optional[int] = None) -> bool:
    """Whether ``data[start:end]`` holds "fenc=" or "fileencoding=", the
    options a modeline sets the encoding with."""
    return data.find(b"fenc=", start, end) >= 0 or data.find(b"fileencoding=", start, end) >= 0


def _may_hold_modeline(data: bytes) -> bool:
    """Whether the first or last :data:`_VIM_MODELINES` lines of ``data``
    may set the encoding (False: no modeline there does)."""
    if len(data) <= _SEARCHED_WHOLE:
        return _sets_fenc(data)
    head_end = -1
    for _ in range(_VIM_MODELINES):
        head_end = data.find(b"\n", head_end + 1)
        if head_end < 0:
            return _sets_fenc(data)  # the first lines are all of them
    if _sets_fenc(data, 0, head_end):
        return True
    # As _tail_lines counts them: a final line end ends the last line.
    tail = len(data) - 1 if data.endswith(b"\n") else len(data)
    for _ in range(_VIM_MODELINES):
        tail = data.rfind(b"\n", 0, tail)
        if tail < 0:
            return _sets_fenc(data)
    return _sets_fenc(data, tail)


def _vim(data: bytes) -> Optional[Declaration]:
    # A modeline sets the encoding with "fenc=" or "fileencoding=": without
    # either in the lines modelines are read from there is none to find
    # (C-level searches, not ten lines cut and searched).
    if not _may_hold_modeline(data):
        return None
    head = _head_lines(data, _VIM_MODELINES)
    lines: List[Tuple[int, bytes]] = list(enumerate(head, 1))
    if len(head) == _VIM_MODELINES:
        tail = _tail_lines(data, _VIM_MODELINES)
        total = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
        first_number = total - len(tail) + 1
        lines.extend((first_number + i, line) for i, line in enumerate(tail)
                     if first_number + i > _VIM_MODELINES)
    # Vim applies modelines in order, so the last one that sets it wins.
    found: Optional[Declaration] = None
    for number, line in lines:
        value = _vim_in(line)
        if value is not None:
            found = Declaration(value.decode("ascii", "backslashreplace"), number, _shown(line), "vim")
    return found


# ---------------------------------------------------------------------------
# The HTML prescan ("prescan a byte stream to determine its encoding"), on
# bytes, as the spec writes it.

_HTML_SPACE = b"\t\n\x0c\r "


def _lower(c: int) -> int:
    return c + 0x20 if 0x41 <= c <= 0x5A else c


def _html_attribute(data: bytes, pos: int) -> Tuple[Optional[Tuple[bytes, bytes]], int]:
    """The spec's "get an attribute": ``((name, value), position after)``,
    or ``(None, position)`` when there is none (at ``>`` or the end)."""
    n = len(data)
    while pos < n and (data[pos] in _HTML_SPACE or data[pos] == 0x2F):
        pos += 1
    if pos >= n or data[pos] == 0x3E:
        return None, pos
    name = bytearray()
    while True:
        if pos >= n:
            return None, pos
        c = data[pos]
        if c == 0x3D and name:
            pos += 1
            break
        if c in _HTML_SPACE:
            while pos < n and data[pos] in _HTML_SPACE:
                pos += 1
            if pos >= n:
                return None, pos
            if data[pos] != 0x3D:
                return (bytes(name), b""), pos
            pos += 1
            break
        if c in b"/>":
            return (bytes(name), b""), pos
        name.append(_lower(c))
        pos += 1
    while pos < n and data[pos] in _HTML_SPACE:
        pos += 1
    if pos >= n:
        return None, pos
    value = bytearray()
    quote = data[pos]
    if quote in b"\"'":
        pos += 1
        while pos < n and data[pos] != quote:
            value.append(_lower(data[pos]))
            pos += 1
        if pos >= n:
            return None, pos
        return (bytes(name), bytes(value)), pos + 1
    if quote == 0x3E:
        return (bytes(name), b""), pos
    while pos < n and data[pos] not in _HTML_SPACE and data[pos] != 0x3E:
        value.append(_lower(data[pos]))
        pos += 1
    if pos >= n:
        return None, pos
    return (bytes(name), bytes(value)), pos


_CONTENT_CHARSET = re.compile(
    rb"charset[\t\n\x0c\r ]*=[\t\n\x0c\r ]*"
    rb"(?:\"([^\"]*)\"|'([^']*)'|([^\"'\t\n\x0c\r ;][^\t\n\x0c\r ;]*))?")


def _charset_from_content(value: bytes) -> Optional[bytes]:
    """The spec's "extracting a character encoding from a meta element"
    (``value`` is lowercased already)."""
    pos = 0
    while True:
        i = value.find(b"charset", pos)
        if i < 0:
            return None
        m = _CONTENT_CHARSET.match(value, i)
        if m is None:
            pos = i + 7  # "charset" not followed by "=": look further
            continue
        return m.group(1) or m.group(2) or m.group(3) or None  # unmatched quote: nothing


def _is_ascii_letter(c: int) -> bool:
    return 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A


#: whether the prescan goes from a byte that is not "<" straight to the
#: next "<" (False: byte by byte, as the spec words it; the tests compare)
_SKIP_TO_TAG = True


def _html_prescan(data: bytes) -> Optional[Tuple[bytes, int, int]]:
    """``(label, start, end)`` of the first <meta> that declares an
    encoding in ``data``."""
    n = len(data)
    pos = 0
    while pos < n:
        if data[pos] != 0x3C and _SKIP_TO_TAG:
            # Every step below starts at a "<"; a byte that is not one is
            # stepped over, as are all of them up to the next "<".
            pos = data.find(b"<", pos)
            if pos < 0:
                return None
        if data.startswith(b"<!--", pos):
            end = data.find(b"-->", pos + 2)
            if end < 0:
                return None
            pos = end + 3
            continue
        if data[pos:pos + 5].lower() == b"<meta" and pos + 5 < n and data[pos + 5] in b"\t\n\x0c\r /":
            start = pos
            pos += 5
            seen = set()
            got_pragma = False
            need_pragma: Optional[bool] = None
            charset: Optional[bytes] = None
            while True:
                attr, pos = _html_attribute(data, pos)
                if attr is None:
                    break
                name, value = attr
                if name in seen:
                    continue
                seen.add(name)
                if name == b"http-equiv":
                    got_pragma = got_pragma or value == b"content-type"
                elif name == b"content" and charset is None:
                    found = _charset_from_content(value)
                    if found:
                        charset, need_pragma = found, True
                elif name == b"charset":
                    charset, need_pragma = value, False
            if pos >= n:
                return None  # the bytes ran out inside the tag: no answer
            if charset is not None and need_pragma is not None and (got_pragma or not need_pragma):
                return charset, start, pos + 1
            pos += 1
            continue
        if data[pos] == 0x3C and pos + 1 < n and (
                _is_ascii_letter(data[pos + 1])
                or data[pos + 1] == 0x2F and pos + 2 < n and _is_ascii_letter(data[pos + 2])):
            while pos < n and data[pos] not in _HTML_SPACE and data[pos] != 0x3E:
                pos += 1
            while True:
                attr, pos = _html_attribute(data, pos)
                if attr is None:
                    break
            pos += 1
            continue
        if data.startswith((b"<!", b"</", b"<?"), pos):
            end = data.find(b">", pos + 1)
            if end < 0:
                return None
            pos = end + 1
            continue
        pos += 1
    return None


def _html(data: bytes) -> Optional[Declaration]:
    head = data[:_HTML_PRESCAN_BYTES]
    found = _html_prescan(head)
    if found is None:
        return None
    label, start, end = found
    return Declaration(label.decode("ascii", "backslashreplace"), head.count(b"\n", 0, start) + 1,
                       _shown(head[start:end]), "html")


#: scanner (or code language) names of formats that allow no declaration
_UNICODE_ONLY = frozenset({"json", "yaml", "toml"})


def find_declaration(data: bytes, syntax: Optional[str] = None) -> Optional[Declaration]:
    """The encoding declaration in ``data`` (a file without a BOM), read
    by the rules of ``syntax`` (a scanner or code language name: "python",
    "html", "xml", "markdown", ...; None: any text)."""
    if syntax in _UNICODE_ONLY:
        return None
    if syntax == "python":
        return _python(data)
    found = _xml(data)
    if found is not None or syntax == "xml":
        return found
    if syntax == "html":
        return _html(data)
    return _emacs(data) or _vim(data)
