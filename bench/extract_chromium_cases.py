"""Extract the host verdicts of Chromium's IDN spoof checker tests into a TSV.

Usage::

    python bench/extract_chromium_cases.py PATH/TO/idn_spoof_checker_unittest.cc \
        --revision COMMIT > bench/data/chromium_idn_cases.tsv
    python bench/extract_chromium_cases.py --top-domains PATH/TO/test_domains.list \
        --revision COMMIT > bench/data/chromium_test_domains.list

The second form extracts the TEST list of top domains
(``components/url_formatter/spoof_checks/top_domains/test_domains.list``)
that Chromium's spoof checker compares hosts with in those tests: its
verdicts on ``đigklmo68.com`` or ``шмнтв.com`` are made against it, so the
bench gives irilint the same list as ``protected-domains``.  One domain a
line, comments and the top-500 marker dropped, order kept.

The input is Chromium's
``components/url_formatter/spoof_checks/idn_spoof_checker_unittest.cc``.
Only the test data is read (the ``{"input", u"unicode", kResult}`` entries of
``kIdnCases`` and of the deviation-character test); nothing of the test code
is kept.  Every entry becomes one row:

``ascii``
    the test's ASCII (Punycode) input.
``host``
    the Unicode form irilint and ICU are asked about: each ``xn--`` label
    decoded with the plain Punycode algorithm (RFC 3492), *without* IDNA
    validation, so that hosts Chromium calls invalid are still shown to the
    checkers as a reader would see them.  A label is kept in Punycode when it
    does not decode, decodes to ASCII only (``xn--example-`` is not a
    spelling of ``example``) or holds whitespace (a link cannot hold it).
``verdict``
    ``legit`` when Chromium shows the whole host as Unicode (``kSafe`` and
    every label of the expected output decoded), else ``spoof``: ``kUnsafe``,
    ``kInvalid``, and ``kSafe`` entries whose expected output keeps a label in
    Punycode (``xn--googl-3we.한국``: Chromium shows the TLD but not the spoofed
    label).
``chromium``
    the raw expectation (``kSafe``/``kUnsafe``/``kInvalid``).
``category``
    ``invalid`` for ``kInvalid`` entries; else the first rule of
    :data:`CATEGORY_RULES` whose pattern matches the entry's own comment, or
    failing that its group heading (the comment block after a blank line);
    an entry with neither is ``mixed-script`` when a label mixes scripts,
    else ``plain-idn``.  Legitimate entries keep the category of the group
    that tests them (a group holds the spoof and the allowed variant).
``group``
    the comment block that opens the entry's group in the test file, then the
    entry's own comment, if any (for readers; shortened).

Preprocessor branches are resolved as on a Linux build: a ``#if`` whose
condition names ``IS_LINUX`` is taken, any other ``#if`` is not, ``#else``
flips.  The deviation-character cases take the non-transitional verdict
(Chromium's default since UTS #46 non-transitional processing was enabled).
Entries whose host is empty or ``.`` are left out (they are not names).

The extraction checks itself: for every valid entry, the decoded input must
equal the test's Unicode output (label by label, where the output keeps a
label in Punycode); a mismatch is an error naming the entry.
"""
from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from typing import Iterator, List, Optional, Tuple

#: (pattern, category), first match wins; matched against the group heading
#: and the entry's own comment.  Kept short on purpose: the categories only
#: tell rule writers which kind of spoof a miss belongs to.
CATEGORY_RULES: Tuple[Tuple[str, str], ...] = (
    (r"really long", "plain-idn"),
    (r"deviation|sharp-s|final-sigma|ZWN?J|youtu", "deviation-invisible"),
    (r"only allowed under|Catalan|IDN TLD|\.ru TLD|TLD will be decoded|TLD is decoded",
     "tld-specific"),
    (r"dotless|dangerous|Katakana Letter No|Gershayim|U\+30F[BCDE]|U\+4E00|U\+3127"
     r"|CJK ideographs|Hyphenation Point|Long Solidus|voiced sound", "dangerous-pattern"),
    (r"Invisib|repeated|another acute|Combining Diacritic|NSM|nonspacing|combining mark",
     "invisible-combining"),
    (r"BiDi check|start with an? RTL", "bidi"),
    (r"(?i)\bdigits?\b|numeric|mostly numbers|looks like a zero|'o2\.com'|^\S*[0-9]{3}\S*\.com$",
     "digit-lookalike"),
    (r"(?i)top domain|top-domain|Similarity|skeleton|is in the test domain list|matching an IDN"
     r"|^(aeœ|æce|æœ|ӕԥ)\.com$", "top-domain-similarity"),
    (r"Whole-script|whole script|wholescript|Latin-look-alike|Latin lookalikes|look like w"
     r"|looks like n|made of two Thai|Myanmar characters|can look like|Indic scripts|^\S+\.com$",
     "whole-script-confusable"),
    (r"Hyphen|Dash|Minus|NV8|quote|U\+058A|U\+2019|U\+2027|U\+30A0|U\+144A", "punctuation-lookalike"),
    (r"Not allowed|Limited Use|Aspirational|excluded|^Yi$|Mongolian|Miao|rare|Ext [A-E]|Tifinagh"
     r"|Canadian|Filler|small capital|Script G|Jamo|degree|Pound|points|Danda|Katakana Extension"
     r"|symbol|Emoji|trade mark|Click|not allowed in IDN|IPA|Padlock|Kra|Modifier-letter",
     "not-allowed-character"),
    (r"(?i)mix|\w \+ \w", "mixed-script"),
)

_ENTRY_RE = re.compile(
    r'\{\s*(?P<ascii>(?:"(?:[^"\\]|\\.)*"\s*)+),\s*'
    r'(?P<unicode>(?:u"(?:[^"\\]|\\.)*"\s*)+|nullptr)\s*,\s*'
    r'(?P<result>kSafe|kUnsafe|kInvalid|is_non_transitional_idna\s*\?\s*(?P<nt>k\w+)\s*:\s*k\w+)\s*\}'
)
_TOKEN_RE = re.compile(r"(?P<blank>\n[ \t]*(?=\n))|(?P<comment>//[^\n]*)|(?P<pp>^[ \t]*#[^\n]*)",
                       re.M)
_ESCAPE_RE = re.compile(r"\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})|\\(.)")


def c_string(literals: str) -> str:
    """The value of adjacent C string literals (``"a" "b"`` or ``u"a" u"b"``)."""
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', literals)

    def unescape(m: "re.Match[str]") -> str:
        if m.group(1) or m.group(2):
            return chr(int(m.group(1) or m.group(2), 16))
        return {"n": "\n", "t": "\t"}.get(m.group(3), m.group(3))

    return "".join(_ESCAPE_RE.sub(unescape, p) for p in parts)


def decode_label(label: str) -> str:
    """``label`` with an ``xn--`` prefix decoded by RFC 3492 alone; the
    label unchanged when it does not decode, decodes to ASCII only or holds
    whitespace."""
    if not label.lower().startswith("xn--"):
        return label
    try:
        text = label[4:].encode("ascii").decode("punycode")
    except (UnicodeError, ValueError):
        return label
    if text.isascii() or any(c.isspace() for c in text):
        # an ACE label must hold a non-ASCII character: "xn--example-" is
        # not another spelling of "example"
        return label
    return text


def decode_host(ascii_host: str) -> str:
    return ".".join(decode_label(lab) for lab in ascii_host.split("."))


def _category(heading: str, note: str, host: str) -> str:
    """The first rule matching the entry's own comment, else the first
    matching its group heading, else :func:`_content_category`."""
    for text in (note, heading):
        for pattern, name in CATEGORY_RULES:
            if text and re.search(pattern, text):
                return name
    return _content_category(host)


def _script_word(c: str) -> str:
    """A stand-in for the script of ``c``: the first word of its name
    ("LATIN", "CJK", "CYRILLIC"); "" for digits, hyphens and marks."""
    if c.isascii() and not c.isalpha():
        return ""
    name = unicodedata.name(c, "")
    return "" if unicodedata.category(c).startswith("M") else name.split(" ")[0]


def _content_category(host: str) -> str:
    """For entries with no comment at all: ``mixed-script`` when one label
    holds letters of two scripts, else ``plain-idn``."""
    for label in host.split("."):
        if len({_script_word(c) for c in label} - {""}) > 1:
            return "mixed-script"
    return "plain-idn"


def _condition_taken(line: str) -> bool:
    return "IS_LINUX" in line


def entries(source: str) -> Iterator[dict]:
    """The test entries of ``source`` with their group heading and comment."""
    events: List[Tuple[int, str, "re.Match[str]"]] = []
    events += [(m.start(), "entry", m) for m in _ENTRY_RE.finditer(source)]
    events += [(m.start(), m.lastgroup or "", m) for m in _TOKEN_RE.finditer(source)]
    events.sort(key=lambda e: e[0])
    heading: List[str] = []
    comments: List[str] = []
    note = ""
    after_gap = True
    taken_stack: List[bool] = []
    last_entry_end = -1
    for pos, kind, m in events:
        if kind == "pp":
            line = m.group().strip()
            if line.startswith("#if"):
                taken_stack.append(_condition_taken(line))
            elif line.startswith("#else"):
                taken_stack[-1] = not taken_stack[-1]
            elif line.startswith("#endif"):
                taken_stack.pop()
            continue
        if kind == "blank":
            after_gap, comments, note = True, [], ""
            continue
        if kind == "comment":
            text = m.group()[2:].strip()
            if pos < last_entry_end:
                continue
            same_line_as_entry = "\n" not in source[last_entry_end:pos] and last_entry_end >= 0
            if same_line_as_entry:
                continue
            if after_gap and not comments:
                heading = []
            comments.append(text)
            if after_gap:
                heading.append(text)
            continue
        # an entry
        if after_gap and not comments:
            heading = []
        end = m.end()
        trailing = re.match(r"[ \t,]*//([^\n]*)", source[end:])
        if comments:
            # a comment block above an entry speaks for the entries after it
            # too, up to the next comment or blank line
            note = " ".join(comments if not after_gap else comments[len(heading):])
        entry_note = note
        if trailing:
            entry_note = (note + " " + trailing.group(1).strip()).strip()
        after_gap, comments, last_entry_end = False, [], end
        if not all(taken_stack):
            continue
        yield {
            "ascii": c_string(m.group("ascii")),
            "unicode": None if m.group("unicode") == "nullptr" else c_string(m.group("unicode")),
            "result": m.group("nt") or m.group("result"),
            "heading": " ".join(heading),
            "note": entry_note,
        }


def rows(source: str) -> Iterator[Tuple[str, str, str, str, str, str]]:
    problems = []
    for e in entries(source):
        ascii_host, expected, result = e["ascii"], e["unicode"], e["result"]
        if ascii_host in ("", "."):
            continue
        host = decode_host(ascii_host)
        kept_punycode = False
        if result != "kInvalid" and expected is not None:
            got, want = host.split("."), expected.split(".")
            if len(got) != len(want):
                problems.append(f"{ascii_host}: decodes to {host!r}, the test says {expected!r}")
            for g, w, a in zip(got, want, ascii_host.split(".")):
                if w.lower().startswith("xn--") and w == a and g != a:
                    kept_punycode = True
                elif g != w:
                    problems.append(f"{ascii_host}: decodes to {host!r}, the test says {expected!r}")
                    break
        verdict = "legit" if result == "kSafe" and not kept_punycode else "spoof"
        category = "invalid" if result == "kInvalid" else _category(e["heading"], e["note"], host)
        group = (e["heading"] + (" | " + e["note"] if e["note"] else "")).replace("\t", " ")
        yield ascii_host, host, verdict, result, category, group[:160]
    if problems:
        raise ValueError("the test data does not decode as it says:\n  " + "\n  ".join(problems))


TOP_DOMAINS_PATH = "components/url_formatter/spoof_checks/top_domains/test_domains.list"
_DOMAIN_RE = re.compile(r"^[^\s#/]+\.[^\s#/]+$")


def top_domains(source: str) -> List[str]:
    """The domains of a Chromium top-domain list: one a line, ``#`` lines
    (comments and the ``###END_TOP_500###`` marker) left out."""
    out = []
    for n, line in enumerate(source.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if not _DOMAIN_RE.match(line):
            raise ValueError(f"line {n}: {line!r} is not a domain name")
        out.append(unicodedata.normalize("NFC", line.lower()))
    return out


def write_top_domains(domains: List[str], revision: str, out) -> None:
    out.write(
        "# Chromium's TEST list of top domains (the input of its spoof checker's unit tests).\n"
        f"# Source: chromium/chromium, {TOP_DOMAINS_PATH}\n"
        f"# Revision: {revision}\n"
        "# Licence of the source: BSD-style (Copyright The Chromium Authors; see Chromium's LICENSE).\n"
        "# Extracted by bench/extract_chromium_cases.py --top-domains; bench/idn_spoof.py passes\n"
        "# these as protected-domains for its second table.\n"
        f"# {len(domains)} domains.\n")
    for d in domains:
        out.write(d + "\n")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", help="path of idn_spoof_checker_unittest.cc (or of test_domains.list)")
    ap.add_argument("--revision", required=True, help="the chromium/chromium commit the file is from")
    ap.add_argument("--top-domains", action="store_true",
                    help="the source is top_domains/test_domains.list: write its domains")
    args = ap.parse_args(argv)
    if args.top_domains:
        try:
            with open(args.source, encoding="utf-8") as fh:
                domains = top_domains(fh.read())
        except OSError as exc:
            print(f"extract_chromium_cases: cannot read {args.source}: {exc.strerror}", file=sys.stderr)
            return 2
        except (ValueError, UnicodeDecodeError) as exc:
            print(f"extract_chromium_cases: {args.source}: {exc}", file=sys.stderr)
            return 1
        if not domains:
            print(f"extract_chromium_cases: {args.source}: no domains found", file=sys.stderr)
            return 1
        write_top_domains(domains, args.revision, sys.stdout)
        return 0
    try:
        with open(args.source, encoding="utf-8") as fh:
            source = fh.read()
    except OSError as exc:
        print(f"extract_chromium_cases: cannot read {args.source}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        table = list(rows(source))
    except ValueError as exc:
        print(f"extract_chromium_cases: {args.source}: {exc}", file=sys.stderr)
        return 1
    if not table:
        print(f"extract_chromium_cases: {args.source}: no test entries found", file=sys.stderr)
        return 1
    out = sys.stdout
    out.write(
        "# Host verdicts of Chromium's IDN spoof checker tests.\n"
        "# Source: chromium/chromium, components/url_formatter/spoof_checks/"
        "idn_spoof_checker_unittest.cc\n"
        f"# Revision: {args.revision}\n"
        "# Licence of the source: BSD-style (Copyright The Chromium Authors; see Chromium's LICENSE).\n"
        "# Extracted by bench/extract_chromium_cases.py (its docstring says how: kIdnCases and the\n"
        "# deviation cases, Linux build branches, non-transitional UTS #46; Unicode host decoded\n"
        "# from the ASCII input; verdict legit = shown as Unicode, spoof = kept in Punycode).\n"
        f"# {len(table)} hosts: {sum(r[2] == 'legit' for r in table)} legit, "
        f"{sum(r[2] == 'spoof' for r in table)} spoof.\n"
    )
    out.write("ascii\thost\tverdict\tchromium\tcategory\tgroup\n")
    for r in table:
        out.write("\t".join(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
