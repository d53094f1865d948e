"""Fuzzer finds, one test each, with the input saved in ``crashes/``.

Each test runs every invariant (:func:`invariants.check_document`) on the
saved document, in the format its file name selects.  An open bug is marked
``xfail(strict=True)`` with what goes wrong, so that the fix makes the test
fail until the mark is removed.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import invariants as inv

CRASHES = Path(__file__).resolve().parent / "crashes"


def _check(name: str, fmt: str) -> None:
    text = (CRASHES / name).read_bytes().decode("utf-8", "surrogateescape")
    inv.check_document(text, fmt)


@pytest.mark.xfail(strict=True, raises=inv.InvariantError, reason=(
    "open: in a C string, uppercase-scheme's safe fix turns '\\FTP://' into '\\ftp://', "
    "and '\\f' is the form-feed escape: the reference is no longer found where it was "
    "(found by hypothesis, test_nearly_valid_iris_embedded[c], 2026-11-22)"))
def test_c_backslash_before_an_uppercase_scheme():
    _check("c-backslash-before-scheme.c", "c")


@pytest.mark.xfail(strict=True, raises=inv.InvariantError, reason=(
    "open: '<&#x48;TTP:///&#x22;a>' is read as 'HTTP:///' but after uppercase-scheme's safe "
    "fix ('<http:///&#x22;a>') as 'http:///\"a': the fix changes the URI (found by hypothesis, "
    "test_nearly_valid_iris_embedded[markdown], 2026-11-22)"))
def test_markdown_scheme_written_as_a_character_reference():
    _check("markdown-charref-scheme-autolink.md", "markdown")
