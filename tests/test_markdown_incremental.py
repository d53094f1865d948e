"""The language server's incremental Markdown scan gives exactly what a full
scan gives.

:class:`IncrementalMarkdownScanner` takes the candidates of unchanged blocks
(code blocks, paragraphs) from its previous scan, shifted by the edit.  The
generated documents and edits mix what decides where blocks begin and end
and what a block gives: fences that open and close (or never close),
indented code, list items, reference definitions, links with nested
parentheses, autolinks, raw HTML, comments, code spans, backslashes and
character references before IRIs, CRLF and blank lines.  After every edit
of a random sequence the incremental result must equal
:func:`scan_markdown` of the same text.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irilint.scanners.markdown import (
    IncrementalMarkdownScanner,
    _Blocks,
    common_prefix,
    common_suffix,
    scan_markdown,
)

_PIECES = [
    "http://a.example/x ", "https://пример.рф/путь ", "see https://例え.jp/パス for ",
    "[t](http://l.example/(c)) ", "[t](<http://a b.example/>) ", "[t](http://x.example/((( ",
    "[r]: http://ref.example/x\n", "[r]:\n  <http://ref2.example/>\n", "[^n]: http://fn.example/\n",
    "<http://auto.example/x>", "<a href=\"http://tag.example/\">", "<!-- http://c.example -->",
    "<!-- ", " -->", "`http://span.example/`", "``", "`", "```\n", "```js\n", "~~~\n",
    "    http://indented.example/\n", "\thttp://tab.example/\n", "- item http://li.example/\n",
    "1. ", "> quote http://q.example/\n", "\n", "\n\n", "\r\n", "\r", " ", "  ", "\\",
    "\\\\", "&#58;", "&colon;//x.example", "&amp;", "(", ")", "](", "[", "]", "]:", "<", ">",
    "x", "word ", "mailto:a@b.example ", "urn:isbn:1 ", "\U0001F600", "http://e.example/\U0001F600 ",
    "```\nhttp://fenced.example/\n```\n", "%7e", "xn--bcher-kva.example ",
]

_TEXT = st.lists(st.sampled_from(_PIECES), max_size=30).map("".join)


_CHARS = st.sampled_from(list("a/:.\n`~[]()<>\\ \t-") + ["\r\n", "\u00e9", "\U0001F600"])


@st.composite
def _edit(draw, text: str):
    """(start, end, inserted): a replacement in ``text``; often one
    character, often at a block's edge (next to a line break), where an
    off-by-one in what the scanner takes over would show."""
    n = len(text)
    breaks = [i for i, c in enumerate(text) if c == "\n"]
    if breaks and draw(st.booleans()):
        start = min(n, max(0, draw(st.sampled_from(breaks)) + draw(st.integers(-2, 2))))
    else:
        start = draw(st.integers(0, n))
    length = draw(st.sampled_from([0, 0, 1, 1, 2, 5, 20, 200]))
    end = min(n, start + length)
    if draw(st.booleans()):
        inserted = draw(_CHARS)
    else:
        inserted = draw(st.lists(st.sampled_from(_PIECES), max_size=3).map("".join))
    return start, end, inserted


_SETTINGS = settings(max_examples=400, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@_SETTINGS
@given(text=_TEXT, data=st.data())
def test_incremental_scan_equals_full_scan_after_random_edits(text, data):
    scanner = IncrementalMarkdownScanner()
    assert scanner.scan(text) == scan_markdown(text)
    for _ in range(data.draw(st.integers(1, 8))):
        start, end, inserted = data.draw(_edit(text))
        text = text[:start] + inserted + text[end:]
        assert scanner.scan(text) == scan_markdown(text), repr(text)


@_SETTINGS
@given(text=_TEXT, data=st.data())
def test_blocks_found_again_from_the_previous_chunks_equal_blocks_found_anew(text, data):
    # the block split itself (fences, lists, indented code, paragraphs),
    # with the chunks of the previous version taken over where unchanged
    blocks = _Blocks(text, record=True)
    for _ in range(data.draw(st.integers(1, 8))):
        start, end, inserted = data.draw(_edit(text))
        new = text[:start] + inserted + text[end:]
        prefix = common_prefix(text, new)
        suffix = common_suffix(text, new, min(len(text), len(new)) - prefix)
        blocks = _Blocks(new, record=True,
                         previous=(blocks.chunks, prefix, len(new) - suffix, len(new) - len(text)))
        fresh = _Blocks(new)
        assert (blocks.code, blocks.paragraphs) == (fresh.code, fresh.paragraphs), repr(new)
        text = new


@_SETTINGS
@given(before=_TEXT, after=_TEXT)
def test_incremental_scan_of_an_unrelated_text(before, after):
    # a whole-text replacement (a full-sync client, or another file's text)
    scanner = IncrementalMarkdownScanner()
    scanner.scan(before)
    assert scanner.scan(after) == scan_markdown(after)
    assert scanner.scan(after) == scan_markdown(after)  # the same text again


def test_unchanged_blocks_are_taken_over_and_shifted():
    paragraphs = ["Intro https://a.example/%d and [x](http://b.example/%d)." % (i, i)
                  for i in range(5)]
    text = "\n\n".join(paragraphs) + "\n"
    scanner = IncrementalMarkdownScanner()
    scanner.scan(text)
    edited = text.replace("Intro https://a.example/2", "Intro, longer, https://a.example/2", 1)
    found = scanner.scan(edited)
    assert found == scan_markdown(edited)
    # first scan: all 5 paragraphs; then only the edited one, the two
    # before it as they were, the two after it moved by the inserted length
    assert (scanner.reused, scanner.rescanned) == (4, 5 + 1)
    assert [c.value for c in found][-2:] == ["https://a.example/4", "http://b.example/4"]


def test_opening_a_fence_rescans_everything_after_it():
    text = "Para http://a.example/\n\nText http://b.example/\n\nMore http://c.example/\n"
    scanner = IncrementalMarkdownScanner()
    scanner.scan(text)
    fenced = text.replace("Text", "```\nText", 1)
    found = scanner.scan(fenced)
    assert found == scan_markdown(fenced)
    assert [c.context for c in found] == ["bare", "code", "code"]


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2 ** 32), size=st.sampled_from([0, 1, 50, 5000, 20000]),
       edits=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 40), st.text("ab\n", max_size=5)),
                      max_size=3))
def test_common_prefix_and_suffix(seed, size, edits):
    rng = random.Random(seed)
    a = "".join(rng.choice("ab\n\u00e9\U0001F600") for _ in range(size))
    b = a
    for where, length, inserted in edits:
        i = int(where * len(b))
        b = b[:i] + inserted + b[i + length:]
    p = common_prefix(a, b)
    naive_p = 0
    while naive_p < min(len(a), len(b)) and a[naive_p] == b[naive_p]:
        naive_p += 1
    assert p == naive_p
    limit = min(len(a), len(b)) - p
    s = common_suffix(a, b, limit)
    naive_s = 0
    while naive_s < limit and a[len(a) - 1 - naive_s] == b[len(b) - 1 - naive_s]:
        naive_s += 1
    assert s == naive_s


_SMALL_DOC = ("Text http://a.example/a\n\n[r]: http://r.example/b\n\n"
              "    http://code.example/c\n\n```\nhttp://f.example/d\n```\n"
              "x <http://auto.example/e>\r\n\r\n- li http://li.example/f")


# whether a chunk starts a list decides whether a later indented chunk is
# code: its first characters matter to every chunk after it
_LIST_DOC = ("- item\n\n    http://in-list.example/a\n\n1. x\n\n    http://in-list.example/b\n\n"
             "para\n\n    http://code.example/c\n\n+ y\n  \n\tz http://tab.example/d\n")


@pytest.mark.parametrize("doc", [_SMALL_DOC, _LIST_DOC], ids=["blocks", "lists"])
def test_every_one_character_edit_of_a_small_document(doc):
    # exhaustive at every block edge: replace, insert before or delete each
    # character (the scanner first scans the unedited document each time)
    before = _Blocks(doc, record=True)
    for i in range(len(doc) + 1):
        variants = [doc[:i] + doc[i + 1:]]
        for c in ("a", "/", "\n", " ", "`", "\\", ">", "-", "1", "\t", "\u00e9"):
            variants.append(doc[:i] + c + doc[i + 1:])
            variants.append(doc[:i] + c + doc[i:])
        for text in variants:
            scanner = IncrementalMarkdownScanner()
            scanner.scan(doc)
            assert scanner.scan(text) == scan_markdown(text), repr(text)
            prefix = common_prefix(doc, text)
            suffix = common_suffix(doc, text, min(len(doc), len(text)) - prefix)
            blocks = _Blocks(text, previous=(before.chunks, prefix, len(text) - suffix,
                                             len(text) - len(doc)))
            fresh = _Blocks(text)
            assert (blocks.code, blocks.paragraphs) == (fresh.code, fresh.paragraphs), repr(text)
