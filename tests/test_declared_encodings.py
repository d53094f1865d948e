"""Files that declare their encoding: read in it, fixed and written back in it.

The documents are real sentences in Russian (cp1251, koi8-r), Hebrew
(windows-1255), Arabic (windows-1256), Japanese (Shift_JIS, EUC-JP) and
Chinese (GB18030, Big5), each declared the way its format declares it.
"""
import io
import json
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irilint.cli import main
from irilint.declared_encoding import Declaration, DeclarationError, codec_for, find_declaration
from irilint.fileio import DocumentError, decode_bytes, read_document, write_atomic

PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))


def run(argv, stdin_bytes=None):
    """``main(argv)`` with stdout captured as bytes: (code, stdout bytes, stderr)."""
    out_bytes = io.BytesIO()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", newline="")
    err = io.StringIO()
    old = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr = out, err
    if stdin_bytes is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin_bytes), encoding="utf-8")
    try:
        code = main(argv)
        out.flush()
    finally:
        sys.stdout, sys.stderr, sys.stdin = old
    return code, out_bytes.getvalue(), err.getvalue()


# name -> (codec the bytes are in, the document's text, declaration kind)
DOCUMENTS = {
    "notes.py": ("cp1251", "# -*- coding: cp1251 -*-\r\n"
                           "# Документация: http://пример.рф/скидка-100% и т.д.\r\n"
                           "x = 1\r\n", "python"),
    "news.md": ("koi8_r", "<!-- -*- coding: koi8-r -*- -->\n# Новости\n\n"
                          "Подробности на http://пример.рф/скидка-100% до конца месяца.\n", "emacs"),
    "he.html": ("cp1255", '<!DOCTYPE html>\n<html dir="rtl"><head><meta http-equiv="Content-Type" '
                          'content="text/html; charset=windows-1255">\n<title>חדשות</title></head>\n'
                          '<body><p>פרטים באתר <a href="http://דוגמה.ישראל/הנחה-100%">כאן</a> '
                          'עד סוף החודש.</p></body></html>\n', "html"),
    "feed.xml": ("cp1256", '<?xml version="1.0" encoding="windows-1256"?>\n<feed><entry><title>أخبار اليوم'
                           '</title><link href="http://مثال.مصر/خصم-100%"/></entry></feed>\n', "xml"),
    "ja.html": ("cp932", '<html><head><meta charset="shift_jis"><title>お知らせ</title></head>\n'
                         '<body><p>詳細は <a href="http://例え.テスト/割引-100%">こちら</a> をご覧ください。'
                         '</p></body></html>\n', "html"),
    "tool.py": ("euc_jp", '#!/usr/bin/env python3\n# vim: set fileencoding=euc-jp :\n'
                          '"""お知らせ: http://例え.テスト/割引-100% をご覧ください。"""\n', "python"),
    "zh.md": ("gb18030", "# 新闻\n\n详情请见 http://例子.中国/折扣-100% 。\n\n第一段。\n\n第二段。\n\n"
                         "<!-- vim: set fileencoding=gb18030 : -->\n", "vim"),
    "tw.txt": ("big5", "vim: fenc=big5\n詳情請見 http://例子.台灣/折扣-100% 。\n", "vim"),
}


def _findings(path):
    code, out, err = run(["check", "--no-cache", "--format", "json", "--select", "bad-percent-encoding",
                          str(path)])
    return code, json.loads(out.decode("utf-8")), err


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_declared_document_is_read_in_its_encoding_with_exact_positions(tmp_path, name):
    codec, text, kind = DOCUMENTS[name]
    path = tmp_path / name
    path.write_bytes(text.encode(codec))
    code, findings, err = _findings(path)
    assert err == ""
    assert code == 1
    [f] = findings
    percent = text.index("100%") + 3
    line_start = text.rfind("\n", 0, percent) + 1
    assert (f["line"], f["column"]) == (text.count("\n", 0, percent) + 1, percent - line_start + 1)
    [edit] = f["fixes"][0]["edits"]
    assert (edit["offset"], edit["end_offset"]) == (percent, percent + 1)
    assert text[edit["offset"]:edit["end_offset"]] == "%"
    assert f["iri"] == text[text.index("http://", line_start):percent + 1]
    doc = read_document(path, syntax={"python": "python", "html": "html", "xml": "xml"}.get(kind, "markdown"))
    assert doc.declaration is not None and doc.declaration.kind == kind
    assert doc.text == text


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_fix_writes_back_in_the_declared_encoding(tmp_path, name):
    codec, text, _ = DOCUMENTS[name]
    path = tmp_path / name
    path.write_bytes(text.encode(codec))
    code, _, err = run(["check", "--no-cache", "--fix", "--select", "bad-percent-encoding", str(path)])
    assert code == 0, err
    assert path.read_bytes() == text.replace("100%", "100%25").encode(codec)


def test_fix_keeps_the_bom_and_line_endings_of_a_utf16_file(tmp_path):
    text = "Подробности: http://пример.рф/скидка-100%\r\nשלום\r\n"
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xff\xfe" + text.encode("utf-16-le"))
    assert run(["check", "--no-cache", "--fix", str(path)])[0] == 0
    assert path.read_bytes() == b"\xff\xfe" + text.replace("100%", "100%25").encode("utf-16-le")


def test_a_bom_wins_over_a_declaration(tmp_path):
    text = "# -*- coding: cp1251 -*-\n# Документация: http://пример.рф/\n"
    doc = decode_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"), "a.py", syntax="python")
    assert doc.encoding == "utf-8" and doc.bom == b"\xef\xbb\xbf" and doc.declaration is None
    assert doc.text == text


def test_undeclared_non_utf8_file_keeps_the_utf8_error(tmp_path):
    path = tmp_path / "ru.md"
    path.write_bytes("Подробности на http://пример.рф/\n".encode("cp1251"))
    code, _, err = run(["check", "--no-cache", str(path)])
    assert code == 2
    assert f"{path}: cannot decode as UTF-8 at byte 0 (invalid continuation byte)" in err


def test_unknown_declared_encoding_is_an_error_naming_path_and_declaration(tmp_path):
    path = tmp_path / "a.py"
    path.write_bytes(b"# -*- coding: klingon-1 -*-\nx = 1\n")
    code, _, err = run(["check", "--no-cache", str(path)])
    assert code == 2
    assert (f"{path}: unknown encoding 'klingon-1' (declared by '# -*- coding: klingon-1 -*-' on line 1)"
            in err)


def test_undecodable_bytes_in_a_declared_encoding_name_the_declaration(tmp_path):
    path = tmp_path / "ja.html"
    # 0x85 0x40 is not a character in Windows-31J.
    path.write_bytes(b'<meta charset="shift_jis">\n<p>' + "お知らせ".encode("cp932") + b"\x85\x40</p>\n")
    code, _, err = run(["check", "--no-cache", str(path)])
    assert code == 2
    assert (f"{path}: cannot decode as CP932, the encoding declared by '<meta charset=\"shift_jis\">' "
            "on line 1, at byte 38 (illegal multibyte sequence)") in err


def test_non_ascii_compatible_declaration_is_an_error():
    with pytest.raises(DocumentError) as info:
        decode_bytes(b"# coding: utf-16\nx = 1\n", "a.py", syntax="python")
    assert info.value.kind == "decode"
    assert "'utf-16' (declared by '# coding: utf-16' on line 1) cannot be the file's" in info.value.reason


@pytest.mark.parametrize("label", ["rot13", "base64", "idna", "punycode", "raw_unicode_escape", "x-mac-klingon"])
def test_codecs_that_are_no_file_encoding_are_unknown(label):
    with pytest.raises(DocumentError) as info:
        decode_bytes(b"<!-- vim: set fenc=%s : -->\nhttp://example.org/\n" % label.encode(), "a.md",
                     syntax="markdown")
    assert info.value.reason.startswith("unknown encoding %r (declared by '<!-- vim: set fenc=" % label)


def test_fix_that_the_declared_encoding_cannot_hold_is_not_written(tmp_path):
    # Vietnamese in windows-1258 spells "ứ" as "ư" + U+0301; NFC's "ứ"
    # (U+1EE9) has no windows-1258 byte.
    text = "-*- coding: windows-1258 -*-\nXem http://example.org/tin-tư\u0301c nhé.\n"
    path = tmp_path / "vi.txt"
    path.write_bytes(text.encode("cp1258"))
    before = path.read_bytes()
    code, _, err = run(["check", "--no-cache", "--fix", str(path)])
    assert code == 2
    assert path.read_bytes() == before
    assert (f"{path}: fixes not written: cannot encode as CP1258 at character 57 (line 2, column 29): "
            "U+1EE9 LATIN SMALL LETTER U WITH HORN AND ACUTE is not in CP1258, the encoding declared by "
            "'-*- coding: windows-1258 -*-' on line 1") in err


def test_fix_is_not_written_when_the_encoding_would_change_other_bytes(tmp_path):
    # Windows-31J has two byte pairs for "≒" (0x8790 and 0x81E0); writing
    # the text back would turn the first into the second.
    text = '<meta charset="shift_jis">\n<p>価格≒1000円 http://例え.テスト/割引-100%</p>\n'
    data = text.encode("cp932").replace("≒".encode("cp932"), b"\x87\x90")
    path = tmp_path / "ja.html"
    path.write_bytes(data)
    doc = read_document(path, syntax="html")
    assert doc.text == text
    code, _, err = run(["check", "--no-cache", "--fix", str(path)])
    assert code == 2
    assert path.read_bytes() == data
    assert data.index(b"\x87\x90") == 34
    assert (f"{path}: fixes not written: its CP932 bytes would not be written back as they were read: "
            "at line 2, column 6, U+2252 APPROXIMATELY EQUAL TO OR THE IMAGE OF is spelled in a way "
            "CP932 does not write") in err


def test_stdin_fix_is_written_in_the_declared_encoding():
    text = "<!-- -*- coding: koi8-r -*- -->\nПодробности на http://пример.рф/скидка-100%\n"
    code, out, err = run(["check", "--fix", "--stdin-filename", "news.md", "-"], stdin_bytes=text.encode("koi8_r"))
    assert code == 0, err
    assert out == text.replace("100%", "100%25").encode("koi8_r")


def test_report_reads_declared_documents(tmp_path, monkeypatch):
    from irilint.report import collect

    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    for name in ("he.html", "feed.xml", "tool.py"):
        codec, text, _ = DOCUMENTS[name]
        (tmp_path / "docs" / name).write_bytes(text.encode(codec))
    data = collect(["docs"], no_cache=True)
    assert data.errors == []
    assert data.files_checked == 3
    assert data.references >= 3
    assert {r.name for r in data.rules} >= {"bad-percent-encoding"}


def test_cache_misses_when_the_declaration_changes(tmp_path):
    # The same body bytes are other words in koi8-r than in cp1251: the
    # cached findings of the one must not be reported for the other.
    body = "Подробности на http://пример.рф/скидка-100%\n".encode("cp1251")
    path = tmp_path / "news.md"
    path.write_bytes(b"<!-- -*- coding: cp1251 -*- -->\n" + body)
    first = run(["check", "--format", "json", str(path)])
    path.write_bytes(b"<!-- -*- coding: koi8-r -*- -->\n" + body)
    second = run(["check", "--format", "json", str(path)])
    fresh = run(["check", "--no-cache", "--format", "json", str(path)])
    assert json.loads(second[1]) == json.loads(fresh[1])
    assert json.loads(first[1])[0]["iri"] == "http://пример.рф/скидка-100%"
    assert json.loads(second[1])[0]["iri"] == body.decode("koi8_r").split(" ")[2].rstrip("\n")


def test_cache_keys_on_the_decoding_rules():
    from irilint import cache

    assert cache.DECODING_RULES >= 1
    assert cache.cache_key(cache.key_hasher("s"), "d") != _key_without_rules("s", "d")


def _key_without_rules(fingerprint, digest):
    import hashlib

    from irilint import __version__
    from irilint.cache import FORMAT

    h = hashlib.sha256(("%d\0%s\0%s\0" % (FORMAT, __version__, fingerprint)).encode("utf-8"))
    h.update(("%s\0%s\0" % (digest, "")).encode("utf-8"))
    return h.hexdigest()


# ---------------------------------------------------------------------------
# Where each format's declaration counts


@pytest.mark.parametrize("data, syntax, expected", [
    # PEP 263: line 2 only after a blank or comment line 1.
    (b"#!/usr/bin/python\n# -*- coding: koi8-r -*-\n", "python", ("koi8-r", 2)),
    (b"\n# coding=cp1251\n", "python", ("cp1251", 2)),
    (b"import os\n# coding: cp1251\n", "python", None),
    (b"x = 1\n\n\n\n# vim: set fileencoding=cp1251 :\n", "python", None),  # Python reads lines 1-2 only
    # Emacs: line 1, or line 2 after #!
    (b"#!/bin/sh\n# -*- mode: sh; coding: cp1251-unix -*-\n", "shell", ("cp1251-unix", 2)),
    (b"intro\n<!-- -*- coding: cp1251 -*- -->\n", "markdown", None),
    (b"-*- mode: text -*-\n", "text", None),
    (b"-*- coding: undecided -*-\n", "text", None),
    # Vim: first or last five lines, after a blank or at a line start.
    (b"1\n2\n3\n4\n5\n6\n7\n8\n.. vim: set fenc=koi8-r :\n", "rst", ("koi8-r", 9)),
    (b"1\n2\n3\n4\n5\n6\nvim: fenc=koi8-r\n7\n8\n9\n10\n11\n", "text", None),
    (b"see nvim:fenc=koi8-r\n", "text", None),
    # XML: the very first bytes.
    (b"<?xml version='1.0' encoding='EUC-JP'?><a/>", "xml", ("EUC-JP", 1)),
    (b" <?xml version='1.0' encoding='EUC-JP'?><a/>", "xml", None),
    (b'<?xml encoding="koi8-r"?>\n<!ENTITY a "b">', "xml", ("koi8-r", 1)),  # a TextDecl
    (b"<?xml version='1.0'?><!-- vim: fenc=koi8-r --><a/>", "xml", None),
    # JSON, YAML and TOML are Unicode only.
    (b"# vim: set fileencoding=cp1251 :\nkey: value\n", "yaml", None),
    # HTML: the prescan.
    (b"<!-- <meta charset=koi8-r> --><meta charset=cp1251>", "html", ("cp1251", 1)),
    (b'<meta content="text/html; charset=koi8-r">', "html", None),  # no http-equiv
    (b'<meta http-equiv=content-type content="text/html;charset=\'koi8-r\'">', "html", ("koi8-r", 1)),
    (b'<title x="<meta charset=cp1251>">t</title><meta charset=big5>', "html", ("big5", 1)),
    (b" " * 1024 + b"<meta charset=cp1251>", "html", None),  # beyond the prescan's 1024 bytes
    (b"<html>\n<head>\n<meta charset=cp1251>", "html", ("cp1251", 3)),
    (b"<html>\n# -*- coding: cp1251 -*-\n", "html", None),  # modelines are not HTML's
])
def test_where_a_declaration_counts(data, syntax, expected):
    found = find_declaration(data, syntax)
    assert (None if found is None else (found.label, found.line)) == expected


@pytest.mark.parametrize("label, kind, codec", [
    ("iso-8859-1", "html", "cp1252"),      # the Encoding Standard's labels
    ("Shift_JIS", "html", "cp932"),
    ("utf-16le", "html", "utf-8"),
    ("big5", "html", "big5hkscs"),
    ("iso-8859-1", "xml", "latin-1"),       # XML's are IANA names
    ("windows-1255", "xml", "cp1255"),
    ("cyrillic-koi8-unix", "emacs", "koi8-r"),
    ("japanese-shift-jis", "emacs", "shift_jis"),
    ("utf-8-unix", "python", "utf-8"),
    ("latin-1-foo", "python", "iso8859-1"),
])
def test_encoding_names_are_read_by_their_format(label, kind, codec):
    import codecs

    assert codec_for(Declaration(label, 1, label, kind)) == codecs.lookup(codec).name


def test_html_iso_8859_1_is_windows_1252():
    data = b"<meta charset=iso-8859-1><p>\x93quoted\x94 http://example.org/</p>"
    assert decode_bytes(data, "a.html", syntax="html").text.endswith("\u201cquoted\u201d http://example.org/</p>")


# ---------------------------------------------------------------------------
# Properties

_CODECS = ["cp1251", "koi8_r", "cp1255", "cp1256", "shift_jis", "euc_jp", "gb18030"]


def _encodable(codec):
    def ok(s):
        # text the codec gives back as written (shift_jis writes "¥" as the
        # byte of "\\", and reads that byte as "\\")
        try:
            return s.encode(codec).decode(codec) == s and "\x00" not in s
        except UnicodeEncodeError:
            return False
    return st.text(st.characters(blacklist_categories=("Cs",)), max_size=60).filter(ok)


@st.composite
def declared_documents(draw):
    codec = draw(st.sampled_from(_CODECS))
    body = draw(_encodable(codec))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return codec, "# -*- coding: %s -*-%s%s" % (codec, newline, body)


@PROPERTY
@given(declared_documents())
def test_declared_documents_read_as_written(doc):
    codec, text = doc
    data = text.encode(codec)
    read = decode_bytes(data, "a.py", syntax="python")
    assert read.text == text
    assert read.encode(read.text) == data
    assert read.round_trip_problem is None


@PROPERTY
@given(declared_documents(), st.data())
def test_written_fixes_change_only_the_edited_bytes(tmp_path_factory, doc, data):
    codec, text = doc
    path = tmp_path_factory.mktemp("w") / "a.py"
    path.write_bytes(text.encode(codec))
    read = read_document(path, syntax="python")
    start = data.draw(st.integers(0, len(text)))
    insert = data.draw(_encodable(codec))
    new_text = text[:start] + insert + text[start:]
    write_atomic(read, new_text)
    assert path.read_bytes() == text[:start].encode(codec) + insert.encode(codec) + text[start:].encode(codec)


@PROPERTY
@given(st.binary(max_size=300), st.sampled_from([None, "python", "html", "xml", "markdown", "yaml"]))
def test_finding_a_declaration_never_fails(data, syntax):
    found = find_declaration(data, syntax)
    if found is not None:
        try:
            codec_for(found)
        except DeclarationError as exc:
            assert found.describe() in str(exc)


_PY_PIECES = ["#", " ", "\t", "\f", "coding", ":", "=", "cp1251", "koi8-r", "euc-jp", "latin-1", "utf-8-unix",
              "x = 1", "-*-", "vim: set fileencoding=", "\n", "\r\n", "\n\n",
              "# -*- coding: cp1251 -*-", "#coding=koi8-r", "# vim: set fileencoding=euc-jp :", "#!/bin/py",
              "# coding: klingon"]


@PROPERTY
@given(st.lists(st.sampled_from(_PY_PIECES), max_size=14))
def test_pep263_declarations_agree_with_cpython(pieces):
    """CPython's own reading of PEP 263 (tokenize.detect_encoding) is the
    reference for Python files."""
    import codecs
    import tokenize

    data = "".join(pieces).encode("ascii")
    try:
        expected = codecs.lookup(tokenize.detect_encoding(io.BytesIO(data).readline)[0]).name
    except SyntaxError:
        expected = None  # an encoding CPython does not know
    found = find_declaration(data, "python")
    if found is None:
        assert expected == "utf-8"
        return
    try:
        got = codecs.lookup(codec_for(found)).name
    except DeclarationError:
        got = None
    assert got == expected


_HTML_TEXT = st.text(st.sampled_from("abc \n\u00e9=/\"'-!"), max_size=20).map(lambda s: s.encode("utf-8"))
_HTML_TAG = st.builds(lambda name, attr, value: b"<%s %s=\"%s\">" % (name, attr, value),
                      st.sampled_from([b"p", b"title", b"div", b"link", b"/p"]),
                      st.sampled_from([b"class", b"href", b"content", b"charset"]),
                      st.text(st.sampled_from("ab <>=/'"), max_size=10).map(lambda s: s.encode("ascii")))
_HTML_COMMENT = st.builds(lambda t: b"<!--" + t.replace(b"-->", b"") + b"-->", _HTML_TEXT)


@PROPERTY
@given(st.lists(st.one_of(_HTML_TEXT.map(lambda t: t.replace(b"<", b"")), _HTML_TAG, _HTML_COMMENT),
                max_size=12),
       st.sampled_from([b"koi8-r", b"windows-1255", b"shift_jis", b"gb18030"]), st.booleans())
def test_html_prescan_finds_the_first_meta_outside_comments(parts, label, commented):
    before = b"".join(parts)
    meta = b'<meta charset="%s">' % label
    data = before + (b"<!--" + meta + b"-->" if commented else meta) + b"<meta charset=big5>"
    found = find_declaration(data, "html")
    if len(data) > 1024:
        return
    expected = b"big5" if commented else label
    assert found is not None and found.label.encode() == expected
    assert found.line == data.count(b"\n", 0, data.index(b"<meta charset=" + (b"big5" if commented else b'"')))+ 1
