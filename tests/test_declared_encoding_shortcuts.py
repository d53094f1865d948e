"""The shortcuts of the encoding-declaration search give what reading the
lines as each format's rules say gives: the Emacs line search only when
"-*-" is in the lines that count, the Vim modeline search only when its
first or last lines set "fenc=" or "fileencoding=", and the HTML prescan
going straight from one "<" to the next."""
from __future__ import annotations

from typing import List, Optional, Tuple
from unittest import mock

from hypothesis import example, given, settings
from hypothesis import strategies as st

from irilint import declared_encoding as de


def _reference_emacs(data: bytes) -> Optional[de.Declaration]:
    lines = de._head_lines(data, 2)
    candidates = lines[:2] if lines and lines[0].startswith(b"#!") else lines[:1]
    for number, line in enumerate(candidates, 1):
        m = de._EMACS.search(line)
        if m is None:
            continue
        c = de._EMACS_CODING.search(m.group(1))
        if c is None:
            return None
        label = c.group(1).decode("ascii", "backslashreplace")
        if de._EMACS_EOL_SUFFIX.sub("", label.lower()) in de._EMACS_NO_ENCODING:
            return None
        return de.Declaration(label, number, de._shown(line), "emacs")
    return None


def _reference_vim(data: bytes) -> Optional[de.Declaration]:
    head = de._head_lines(data, de._VIM_MODELINES)
    lines: List[Tuple[int, bytes]] = list(enumerate(head, 1))
    if len(head) == de._VIM_MODELINES:
        tail = de._tail_lines(data, de._VIM_MODELINES)
        total = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
        first_number = total - len(tail) + 1
        lines.extend((first_number + i, line) for i, line in enumerate(tail)
                     if first_number + i > de._VIM_MODELINES)
    found = None
    for number, line in lines:
        value = de._vim_in(line)
        if value is not None:
            found = de.Declaration(value.decode("ascii", "backslashreplace"), number, de._shown(line), "vim")
    return found


#: long enough that a file of a few of them is not searched whole
_FILLER = b"x" * 3000

_EMACS_PIECES = st.sampled_from([
    b"#!", b"/bin/sh", b"\n", b"\r\n", b"\r", b" ", b"-*-", b"-*", b"*-", b"coding: latin-1", b"coding:utf-8",
    b"mode: python", b";", b"# ", b"text", b"coding: undecided", b"coding: cp1251-unix", _FILLER,
])

_VIM_PIECES = st.sampled_from([
    b"text", b" ", b"\t", b"\n", b"\r\n", b"vi:", b"vim:", b"Vim600:", b" ex:", b"se ", b"set ",
    b"fenc=latin1", b"fileencoding=utf-8", b"enc=x", b"encoding=y", b":", b"\\:", b"# ", b"ts=4",
    b"fen", b"c=", b"FENC=koi8-r", b"\n\n\n", _FILLER,
])

_HTML_PIECES = st.sampled_from([
    b"<meta charset=latin1>", b"<meta charset='koi8-r'/>", b"<META CHARSET=\"cp1251\">",
    b"<meta http-equiv=content-type content='text/html; charset=shift_jis'>",
    b"<meta content=\"text/html; charset=big5\" http-equiv=\"Content-Type\">", b"<meta name=x>",
    b"<!--", b"-->", b"<!DOCTYPE html>", b"<?php x ?>", b"</p>", b"<a href='<meta charset=x>'>",
    b"<", b">", b"/", b"=", b"'", b"\"", b" ", b"\n", b"text ", b"<p", b"<1", b"</", b"<!", b"<meta",
    b"charset=utf-8", b"<a b=c d>", b"x" * 200,
])


@settings(max_examples=500, deadline=None)
@given(st.lists(_EMACS_PIECES, max_size=30).map(b"".join))
@example(b"# -*- coding: latin-1 -*-\n")
@example(b"#!/bin/sh\n# -*- coding: latin-1 -*-\n")
@example(b"#!/bin/sh" + _FILLER * 2 + b"\n# -*- coding: latin-1 -*-\n")
@example(b"x\n# -*- coding: latin-1 -*-\n")
@example(b"#!" + _FILLER + b"-*- coding: koi8-r -*-\n")
def test_emacs_shortcut_equals_reading_the_first_lines(data):
    assert de._emacs(data) == _reference_emacs(data)


@settings(max_examples=500, deadline=None)
@given(st.lists(_VIM_PIECES, max_size=40).map(b"".join))
@example(b"# vim: set fenc=latin1 :\n")
@example(b"a\nb\nc\nd\ne\nf\ng\n# vi: fileencoding=cp1252\n")
@example(b"# vim: set ts=4 :\n")
@example(b"# vim: set fenc=latin1 :\n" + _FILLER * 2)
@example(_FILLER * 2 + b"\na\nb\nc\nd\n# vi: fileencoding=cp1252\n")
@example(b"a\nb\nc\nd\ne\n" + _FILLER * 2 + b"\n# vi: fileencoding=cp1252\nf\ng\nh\ni")
@example(b"a\nb\nc\nd\ne\n# vi: fenc=cp1252\n" + _FILLER * 2 + b"\nf\ng\nh\ni\nj\n")
def test_vim_shortcut_equals_reading_every_line(data):
    assert de._vim(data) == _reference_vim(data)


@settings(max_examples=500, deadline=None)
@given(st.lists(_VIM_PIECES, max_size=40).map(b"".join))
@example(b"a\nb\nc\nd\ne\nf\ng\n# vi: fileencoding=cp1252\n")
@example(b"a\nb\nc\nd\ne\n# vi: fileencoding=cp1252\nf\ng\nh\ni\nj\n")
@example(b"a\nb\nc\nd\n# vi: fenc=cp1252\nf\ng\nh\ni\nj\nk")
def test_vim_shortcut_searches_first_and_last_lines_of_a_small_file_as_of_a_large_one(data):
    # Every file, however small, takes the way of a large one: its first
    # and last lines found and searched.
    with mock.patch.object(de, "_SEARCHED_WHOLE", 0):
        assert de._vim(data) == _reference_vim(data)


@settings(max_examples=500, deadline=None)
@given(st.lists(_HTML_PIECES, max_size=30).map(b"".join))
@example(b"<!DOCTYPE html>\n<html lang=en>\n<head>\n<meta charset=\"koi8-r\">")
@example(b"text <!-- <meta charset=x> --> more <meta charset=y>")
@example(b"<a title='<meta charset=x>'> <meta charset=y>")
def test_html_prescan_skipping_to_the_next_tag_equals_stepping_byte_by_byte(data):
    skipping = de._html_prescan(data)
    with mock.patch.object(de, "_SKIP_TO_TAG", False):
        stepping = de._html_prescan(data)
    assert skipping == stepping
