"""Fuzzer finds, one test each, with the input saved in ``crashes/``.

Each test runs every invariant (:func:`invariants.check_document`) on the
saved document, in the format its file name selects.  An open bug is marked
``xfail(strict=True)`` with what goes wrong, so that the fix makes the test
fail until the mark is removed.
"""
from __future__ import annotations

from pathlib import Path


import invariants as inv

CRASHES = Path(__file__).resolve().parent / "crashes"


def _check(name: str, fmt: str) -> None:
    text = (CRASHES / name).read_bytes().decode("utf-8", "surrogateescape")
    inv.check_document(text, fmt)


def test_c_backslash_before_an_uppercase_scheme():
    """In a C string, uppercase-scheme's safe fix turned '\\FTP://' into
    '\\ftp://', and '\\f' is the form-feed escape: the reference was no
    longer found where it was.  Fixed: in a string, a candidate starts after
    an escape sequence (found by hypothesis, test_nearly_valid_iris_embedded[c],
    2026-11-22)."""
    _check("c-backslash-before-scheme.c", "c")


def test_markdown_scheme_written_as_a_character_reference():
    """'<&#x48;TTP:///&#x22;a>' is read as 'HTTP:///' but after
    uppercase-scheme's safe fix ('<http:///&#x22;a>') as an autolink: the
    fix changed the URI.  Fixed: rewriting a character the source spells
    as a reference or escape makes a fix unsafe (found by hypothesis,
    test_nearly_valid_iris_embedded[markdown], 2026-11-22)."""
    _check("markdown-charref-scheme-autolink.md", "markdown")


def test_c_comment_backslash_before_an_uppercase_scheme():
    """In a comment (no string escapes), lowercasing '\\FTP://' gave
    '\\ftp://', which the text scanner reads as a roff font escape ('\\f')
    followed by 'tp://': the safe fix lost its reference.  Fixed: a fix of
    the first character of a reference right after a backslash is unsafe
    (found by hypothesis, test_nearly_valid_iris_embedded[c], 2026-11-22)."""
    _check("c-comment-backslash-before-scheme.c", "c")


def test_uri_key_reads_only_non_ascii_escapes_of_a_host():
    """A safe punycode-label fix of "http://@xn--r8jz45g.%com" keeps the
    key: the host's stray "%" stays "%25", and a host of encoded UTF-8 is
    the text it encodes (RFC 3987 s3.1 allows either form)."""
    from fuzz_strategies import uri_key

    assert uri_key("http://@xn--r8jz45g.%com") == uri_key("http://@\u4f8b\u3048.%com")
    assert uri_key("http://aa%C3%A9") == uri_key("http://aa\u00e9")
