"""String escapes in source code are decoded before IRIs are looked for:
``"http://example.com/\\u202eabc"`` holds a RIGHT-TO-LEFT OVERRIDE for
every program that reads it, so it is reported, on the six characters of
the escape.  Raw literals (Python ``r"..."``, Rust ``r"..."``, C#
``@"..."``, C++ ``R"(...)"``, Go backticks) are read as written."""
import json
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irilint.engine import Engine
from irilint.scanners import get_scanner
from irilint.scanners.code import CodeScanner
from irilint.unicode_security import general_category

PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def findings(text, path):
    return Engine().check_text(text, path=path).findings


def bidi_spans(text, path):
    return [text[f.start:f.end] for f in findings(text, path) if f.rule.name == "bidi-control"]


# ------------------------------------------------------------ each language

@pytest.mark.parametrize("path, source, escape", [
    ("a.py", 'u = "http://example.com/\\u202eabc"\n', "\\u202e"),
    ("a.py", "u = 'http://example.com/\\U0000202Eabc'\n", "\\U0000202E"),
    ("a.py", 'u = "http://example.com/\\N{RIGHT-TO-LEFT OVERRIDE}abc"\n',
     "\\N{RIGHT-TO-LEFT OVERRIDE}"),
    ("a.py", 'u = f"http://example.com/\\u202eabc{x}"\n', "\\u202e"),
    ("a.py", 'u = b"x" + """http://example.com/\\u202eabc"""\n', "\\u202e"),
    ("a.js", 'const u = "http://example.com/\\u202eabc";\n', "\\u202e"),
    ("a.js", "const u = 'http://example.com/\\u{202E}abc';\n", "\\u{202E}"),
    ("a.js", "const u = `http://example.com/\\u202eabc`;\n", "\\u202e"),
    ("a.ts", 'let u: string = "http://example.com/\\u202eabc";\n', "\\u202e"),
    ("a.json", '{"home": "http://example.com/\\u202eabc"}\n', "\\u202e"),
    ("a.c", 'const char *u = "http://example.com/\\u202eabc";\n', "\\u202e"),
    ("a.cpp", 'auto u = u8"http://example.com/\\U0000202eabc";\n', "\\U0000202e"),
    ("A.java", 'String u = "http://example.com/\\u202eabc";\n', "\\u202e"),
    ("a.cs", 'var u = "http://example.com/\\u202eabc";\n', "\\u202e"),
    ("a.go", 'u := "http://example.com/\\u202eabc"\n', "\\u202e"),
    ("a.rs", 'let u = "http://example.com/\\u{202e}abc";\n', "\\u{202e}"),
    ("a.kt", 'val u = "http://example.com/\\u202eabc"\n', "\\u202e"),
    ("a.sh", "u=$'http://example.com/\\u202eabc'\n", "\\u202e"),
    ("a.php", '<?php $u = "http://example.com/\\u{202e}abc";\n', "\\u{202e}"),
    ("a.rb", 'u = "http://example.com/\\u202eabc"\n', "\\u202e"),
    ("a.css", 'a { background: url("http://example.com/\\202e abc") }\n', "\\202e "),
])
def test_escaped_bidi_control_is_found_on_its_escape(path, source, escape):
    assert bidi_spans(source, path) == [escape]


@pytest.mark.parametrize("path, source", [
    ("a.py", 'u = r"http://example.com/\\u202eabc"\n'),
    ("a.py", 'u = Rb"http://example.com/\\u202eabc"\n'),
    ("a.rs", 'let u = r"http://example.com/\\u{202e}abc";\n'),
    ("a.rs", 'let u = r#"http://example.com/\\u{202e}abc"#;\n'),
    ("a.cs", 'var u = @"http://example.com/\\u202eabc";\n'),
    ("a.cpp", 'auto u = R"(http://example.com/\\u202eabc)";\n'),
    ("a.go", "u := `http://example.com/\\u202eabc`\n"),
    ("a.js", "const u = String.raw`http://example.com/\\u202eabc`;\n"),
    ("a.sh", "u='http://example.com/\\u202eabc'\n"),  # no $'...': as written
    ("a.php", "<?php $u = 'http://example.com/\\u{202e}abc';\n"),
    ("a.rb", "u = 'http://example.com/\\u202eabc'\n"),
])
def test_raw_literals_are_read_as_written(path, source):
    assert bidi_spans(source, path) == []
    values = [c.value for c in Engine().check_text(source, path=path).findings]
    assert all("\u202e" not in v for v in values)


@pytest.mark.parametrize("language, literal, value", [
    ("python", '"http:\\057\\057e.org/a"', "http://e.org/a"),         # octal
    ("python", '"http://e.org/\\x41"', "http://e.org/A"),
    ("python", '"http\\x3a//e.org/a"', "http://e.org/a"),              # an escaped colon anchors
    ("python", '"http://e.org/caf\\u00e9"', "http://e.org/caf\u00e9"),
    ("python", '"http://e.org/\\ud83d\\ude00"', "http://e.org/\ud83d\ude00"),  # no pairs in Python
    ("javascript", '"http:\\/\\/e.org\\/a"', "http://e.org/a"),        # identity escapes
    ("javascript", '"http://e.org/\\ud83d\\ude00"', "http://e.org/\U0001f600"),
    ("javascript", "'http://e.org/\\u{1F600}'", "http://e.org/\U0001f600"),
    ("java", '"http://e.org/\\uD83D\\uDE00"', "http://e.org/\U0001f600"),
    ("rust", '"http://e.org/\\x41\\u{e9}"', "http://e.org/A\u00e9"),
    ("go", '"http://e.org/\\xe9"', "http://e.org/\u00e9"),
])
def test_escapes_decoded_per_language(language, literal, value):
    source = "x = %s\n" % literal
    found = list(CodeScanner(language).scan(source))
    assert [c.value for c in found] == [value]
    c = found[0]
    assert source[c.start:c.end] == literal[1:-1]


def test_json_surrogate_pair_is_one_character():
    source = '{"u": "http://e.org/\\ud83d\\ude00x"}'
    found = list(get_scanner("json").scan(source))  # a scanner may yield them
    assert [c.value for c in found] == ["http://e.org/\U0001f600x"]
    c = found[0]
    # the pair's two escapes map to the one character they spell
    assert source[c.source_offset(13):c.source_offset(14)] == "\\ud83d\\ude00"


# ----------------------------------------------------- real sentences, RTL

@pytest.mark.parametrize("path, source, escape", [
    # An Arabic file name whose extension an RLO reverses ("invoice" ... "fdp.exe").
    ("a.py", 'url = "https://example.com/\u0645\u0644\u0641\u0627\u062a/\u0641\u0627\u062a\u0648\u0631\u0629'
             '\\u202Efdp.exe"  # \u0641\u0627\u062a\u0648\u0631\u0629 \u0627\u0644\u0634\u0647\u0631\n',
     "\\u202E"),
    # A Hebrew Wikipedia path with an escaped RLO in a JavaScript constant.
    ("a.js", 'const link = "https://he.wikipedia.org/wiki/\u05e9\u05dc\u05d5\u05dd\\u202etxt.exe";'
             ' // \u05e7\u05d9\u05e9\u05d5\u05e8 \u05dc\u05e2\u05de\u05d5\u05d3\n', "\\u202e"),
    # Persian, in JSON
    ("a.json", '{"url": "https://fa.example/\u0633\u0644\u0627\u0645\\u202b/x"}\n', "\\u202b"),
])
def test_escaped_bidi_control_in_rtl_paths(path, source, escape):
    spans = [(source[f.start:f.end], f.start) for f in findings(source, path)
             if f.rule.name == "bidi-control"]
    assert [s for s, _ in spans] == [escape]
    assert spans[0][1] == source.index(escape)


def test_fixes_on_an_escaped_bidi_control_never_write_a_raw_one():
    source = 'u = "http://example.com/\\u202eabc"\n'
    for f in findings(source, "a.py"):
        for fix in f.fixes:
            assert not fix.safe  # a string literal is data
            for edit in fix.edits:
                assert not BIDI_CONTROLS.intersection(edit.new_text)
                # an edit never cuts an escape in two
                assert source[edit.start:edit.end] in ("", "\\u202e") or "\\" not in source[edit.start:edit.end]


# -------------------------------------------------------------- properties

#: Text a reader would put in a string: IRI pieces, RTL and CJK words,
#: bidi controls, spaces; no quote, backslash or line break (which would
#: end or change the plain literal it is compared with).
PIECES = st.sampled_from([
    "http://", "https://", "e.org", "example.com", "/", "?q=", "#", ":", "8080", "a", "Z",
    " ", "%41", "\u202e", "\u200f", "\u0645\u0631\u062d\u0628\u0627", "\u05e9\u05dc\u05d5\u05dd",
    "\u4e2d\u6587", "\u65e5\u672c", "\u00e9", "\U0001f600", "-", ".", "[", "]", "(", ")", "'", "{x}",
])
TEXTS = st.lists(st.one_of(PIECES, st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters='"\\\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029'),
    max_size=3)), max_size=12).map("".join)


def _python_escape(c, how):
    n = ord(c)
    if how == 0 and n < 0x100:
        return "\\x%02x" % n
    if how == 1 and n < 0x10000:
        return "\\u%04x" % n
    if how == 2:
        try:
            return "\\N{%s}" % unicodedata.name(c)
        except ValueError:
            pass
    if how == 3 and n < 0o400:
        return "\\%03o" % n
    return "\\U%08x" % n


def _js_escape(c, how):
    n = ord(c)
    if how == 0 and n < 0x100:
        return "\\x%02x" % n
    if how == 1:
        return "\\u{%x}" % n
    if how == 2 and c in "/#?[]()':-.% ":
        return "\\" + c  # an identity escape
    if n < 0x10000:
        return "\\u%04x" % n
    n -= 0x10000
    return "\\u%04x\\u%04x" % (0xD800 + (n >> 10), 0xDC00 + (n & 0x3FF))


def _json_escape(c, how):
    if how == 0 and c == "/":
        return "\\/"
    return json.dumps(c, ensure_ascii=True)[1:-1] if ord(c) > 0x7f else "\\u%04x" % ord(c)


ESCAPERS = {"python": _python_escape, "javascript": _js_escape, "json": _json_escape}


@PROPERTY
@given(TEXTS, st.sampled_from(sorted(ESCAPERS)), st.data())
def test_escaped_literal_gives_the_references_of_the_plain_one(text, language, data):
    hows = data.draw(st.lists(st.integers(-1, 3), min_size=len(text), max_size=len(text)))
    escape = ESCAPERS[language]
    encoded = "".join(c if how < 0 else escape(c, how) for c, how in zip(text, hows))
    scanner = get_scanner(language)
    if language == "json":
        wrap = '{"k": "%s"}'
    else:
        wrap = 'x = "%s"\n'
    plain = [c.value for c in scanner.scan(wrap % text)]
    escaped = list(scanner.scan(wrap % encoded))
    assert [c.value for c in escaped] == plain
    source = wrap % encoded
    for c in escaped:
        # each character maps back to its spelling in the file, in order
        assert c.start <= c.end
        for i, ch in enumerate(c.value):
            s, e = c.source_span(i, i + 1)
            spelled = source[s:e]
            assert spelled == ch or spelled.startswith("\\") or e == s, (ch, spelled)


@PROPERTY
@given(TEXTS, st.sampled_from(["PYTHON_STYLE", "JS_STYLE", "C_STYLE", "RUST_STYLE", "SHELL_ANSI_C_STYLE"]))
def test_text_without_backslashes_decodes_to_itself(text, style_name):
    from irilint.scanners import _decode

    d = _decode.decode_code_escapes(text, 0, len(text), getattr(_decode, style_name))
    assert d.value == text and d.offsets is None


# --------------------------------------------------------------- templates

def codes(text, path):
    return sorted((f.rule.code, text[f.start:f.end]) for f in findings(text, path))


@pytest.mark.parametrize("path, source", [
    # a literal passed to a regex constructor
    ("a.py", "RESET = re.compile(r'^http://example.com/reset/[\\w+/-]')\n"),
    ("a.py", "self.assertRegex(body, r'^http://example.com/reset/[\\w+/-]+$')\n"),
    ("a.js", "const r = new RegExp('^https://e.org/items/[0-9]+$');\n"),
    ("A.java", "Pattern p = Pattern.compile(\"^https://e.org/[^/]*$\");\n"),
    ("a.go", "var r = regexp.MustCompile(`^https://e.org/[^/]*$`)\n"),
    # a literal written in regex syntax
    ("a.py", "u = '^mc://dar1:12346/[^/]*$'\n"),
    ("a.py", "UUID = '^urn:uuid:[0-9A-F]{8}-[0-9A-F]{4}'\n"),
    # a JavaScript regex literal
    ("a.js", "if (/^https?:\\/\\/e\\.org\\/[a-z]+$/.test(u)) go(u);\n"),
    # SPARQL / text: the reference itself holds a character class
    ("q.rq", 'FILTER(REGEX(STR(?u), "^urn:uuid:[0-9A-F]{8}-"))\n'),
])
def test_regular_expressions_are_templates(path, source):
    assert codes(source, path) == []


@pytest.mark.parametrize("source", [
    "sh://[user@]machine[:options]/[remote-dir]\n",
    "data:[<MIME-type>][;charset=<encoding>][;base64],<data>\n",
    "http://username:password@proxyserver:proxyport\n",
    "http://host.domain:port/\n",
    "http://\u30db\u30b9\u30c8\u540d.\u30c9\u30e1\u30a4\u30f3:\u30dd\u30fc\u30c8\u756a\u53f7/\n",
    "http://$HOST$/$GRAPHSTORE$/person/1\n",
    "http://<host>:<port>/path\n",
    "https://e.org/{0}/items/{}\n",
])
def test_grammar_and_placeholders_are_templates(source):
    assert codes(source, "notes.txt") == []


def test_minified_javascript_object_key_is_no_iri():
    source = "function f(i,s){return{data:i[s],id:s}}\n"
    assert [c.value for c in get_scanner("javascript").scan(source)] == []


@pytest.mark.parametrize("path, source, expected", [
    # the authority is literal: port, IP-literal and host rules still run
    ("notes.txt", "see javascript://[:1] for that\n", [("IRI006", "[:1]")]),
    ("notes.txt", "https://example.com:8o80/{{ path }}\n", [("IRI005", "8o80")]),
    ("a.py", "r = re.compile(r'^https://example.com:8o80/[a-z]+$')\n", [("IRI005", "8o80")]),
    # the authority is a template: nothing to say about its port
    ("notes.txt", "http://{{ base }}:8o80/x\n", []),
    ("notes.txt", "http://<host>:8o80/x\n", []),
])
def test_literal_authority_of_a_template_is_checked(path, source, expected):
    assert codes(source, path) == expected


def test_templates_still_get_bidi_and_lookalike_rules():
    # an RLO in a regex and a Cyrillic "а" in a placeholder URL are still shown
    source = "r = re.compile('^https://e.org/\\u202e[a-z]+$')\n"
    assert codes(source, "a.py") == [("IRI101", "\\u202e")]
    found = codes("http://p\u0430ypal.com/{user}/\n", "notes.txt")
    assert any(code.startswith("IRI2") for code, _ in found)


def test_real_urls_with_brackets_stay_checked():
    # a query with PHP-style array keys is no grammar: its "[" is reported
    assert ("IRI001", "[") in codes("https://e.org/list?filter[name]=x\n", "notes.txt")
    # an IPv6 literal is no optional part
    assert codes("http://[::1]:8o/\n", "notes.txt") == [("IRI005", "8o")]


def test_userinfo_confused_with_a_port_stays_a_finding():
    # "foo:bar" reads as host and port to a parser, as userinfo to a reader
    assert codes("http://foo:bar/baz@example.com\n", "notes.txt") == [("IRI005", "bar")]


# ------------------------------------------------- <script> and <style> as code

HTML_PAGE = (
    '<!DOCTYPE html>\n<html lang="ar" dir="rtl"><head><meta charset="utf-8">\n'
    '<style>/* \u0627\u0644\u062e\u0637: https://fonts.example/ar */\n'
    '  body { background: url("https://cdn.example/\u0635\u0648\u0631\u0629\\202e gnp.exe") }</style>\n'
    '<script>\n'
    '  // \u0631\u0627\u0628\u0637 \u0627\u0644\u0641\u0627\u062a\u0648\u0631\u0629\n'
    '  const invoice = "https://example.com/\u0641\u0627\u062a\u0648\u0631\u0629\\u202efdp.exe";\n'
    '  const opts = {data:i[s], re: /^https?:\\/\\/e\\.org\\/[a-z]+$/};\n'
    '</script>\n'
    '<script type="text/template"><a href="http://e.org/{{ id }}">x</a></script>\n'
    '</head><body><p>\u0645\u0631\u062d\u0628\u0627</p></body></html>\n')


def test_script_and_style_are_scanned_as_code():
    found = list(get_scanner("html").scan(HTML_PAGE))
    by_value = {c.value: c for c in found}
    invoice = "https://example.com/\u0641\u0627\u062a\u0648\u0631\u0629\u202efdp.exe"
    image = "https://cdn.example/\u0635\u0648\u0631\u0629\u202egnp.exe"
    assert invoice in by_value and image in by_value
    assert "https://fonts.example/ar" in by_value  # a CSS comment
    assert not any(v.startswith("data:") for v in by_value)  # an object key
    for c in found:
        if c.start < HTML_PAGE.index("</head>") and HTML_PAGE.rfind("<script", 0, c.start) >= 0 \
                or c.value in (image, "https://fonts.example/ar"):
            assert c.context == "script"  # data: no fix of code is safe


def test_escaped_bidi_controls_in_script_and_style_point_at_their_escapes():
    spans = bidi_spans(HTML_PAGE, "index.html")
    assert spans == ["\\202e ", "\\u202e"]


def test_script_data_block_is_not_javascript():
    # a template block keeps being read as text
    values = [c.value for c in get_scanner("html").scan(HTML_PAGE)]
    assert any(v.startswith("http://e.org/") for v in values)


@pytest.mark.parametrize("literal, value", [
    ('"http://e.org/\\202e x"', "http://e.org/\u202ex"),      # the space ends the escape
    ('"http://e.org/\\00e9t\\e9 "', "http://e.org/\u00e9t\u00e9"),
    ("'http\\:\\/\\/e.org/a'", "http://e.org/a"),               # any other character is itself
])
def test_css_escapes(literal, value):
    source = "a { background: url(%s) }\n" % literal
    assert [c.value for c in CodeScanner("css").scan(source)] == [value]


@PROPERTY
@given(TEXTS, st.sampled_from([("a.py", _python_escape), ("a.js", _js_escape), ("a.json", _json_escape)]),
       st.data())
def test_no_fix_writes_an_invisible_character_into_an_escaped_literal(text, lang, data):
    path, escape = lang
    hows = data.draw(st.lists(st.integers(-1, 3), min_size=len(text), max_size=len(text)))
    # every invisible or bidi character is escaped, as a careful author writes it
    encoded = "".join(escape(c, max(how, 1)) if general_category(c) in ("Cf", "Cc") or how >= 0
                      else c for c, how in zip(text, hows))
    source = ('{"k": "%s"}' if path == "a.json" else 'x = "%s"\n') % encoded
    for f in findings(source, path):
        for fix in f.fixes:
            assert not fix.safe
            for edit in fix.edits:
                assert all(general_category(c) not in ("Cf", "Cc") for c in edit.new_text), fix


# ------------------------------------------------ adjacent literals, joined

def test_python_adjacent_literals_are_one_string():
    source = ('INVALID = [\n'
              '    "https://userid:paaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"\n'
              '    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaassword@example.com",\n'
              ']\n')
    found = list(CodeScanner("python").scan(source))
    assert [c.value for c in found] == [
        "https://userid:paaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaassword@example.com"]
    c = found[0]
    # each character maps to its own literal; the quotes and the line break
    # between the two are no part of it
    assert source[c.start:c.end].startswith("https://") and source[c.start:c.end].endswith("example.com")
    for i, ch in enumerate(c.value):
        s, e = c.source_span(i, i + 1)
        assert source[s:e] == ch
    assert codes(source, "a.py") == []  # no "paaa..." port


@pytest.mark.parametrize("language, source, value", [
    ("python", 'u = ("http://e.org/"  # the base\n     r"a\\b" f"/{x}")\n', "http://e.org/a"),
    ("python", 'u = "http://e.org/\\u05e9" \\\n    "\\u05dc\\u05d5\\u05dd"\n', "http://e.org/\u05e9\u05dc\u05d5\u05dd"),
    ("c", 'const char *u = "http://e.org/" /* base */ "a/b";\n', "http://e.org/a/b"),
    ("cpp", 'auto u = u8"http://e.org/"\n    u8"\\u65e5\\u672c";\n', "http://e.org/\u65e5\u672c"),
    # a literal ending the IRI maps its end to its own closing quote
    ("python", 'u = "http://e.org/a b" "c"\n', "http://e.org/a"),
    # JavaScript does not join literals
    ("javascript", 'u = "http://e.org/"; v = "a";\n', "http://e.org/"),
])
def test_adjacent_literals_joined(language, source, value):
    found = list(CodeScanner(language).scan(source))
    assert [c.value for c in found] == [value]
    c = found[0]
    for i, ch in enumerate(c.value):
        s, e = c.source_span(i, i + 1)
        assert source[s:e] == ch or source[s:e].startswith("\\")


def test_escaped_rlo_in_a_joined_literal_points_at_its_escape():
    source = 'URL = ("https://he.example/\u05e9\u05dc\u05d5\u05dd/"\n       "\\u202etxt.exe")\n'
    assert bidi_spans(source, "a.py") == ["\\u202e"]


@PROPERTY
@given(st.lists(st.tuples(TEXTS, st.sampled_from([" ", "\n    ", "  # c\n  ", " \\\n "])), min_size=1, max_size=5))
def test_joined_literals_give_the_references_of_one_literal(parts):
    joined_source = "x = (%s)\n" % "".join('"%s"%s' % (t, sep) for t, sep in parts)
    one_source = 'x = ("%s")\n' % "".join(t for t, _ in parts)
    from irilint.scanners.code import LANGUAGES, scan_code

    joined = [c.value for c in CodeScanner("python").scan(joined_source)]
    assert joined == [c.value for c in CodeScanner("python").scan(one_source)]
    assert joined == [c.value for c in scan_code(joined_source, LANGUAGES["python"], fast=False)]


# ------------------------------------------------------ JavaScript regex literals

def test_quote_in_a_regex_literal_opens_no_string():
    # minified code: the '"' in /"/g used to open a string that swallowed
    # the code after it, whose object keys ("data:") became references
    source = ('e=e.replace(/"/g,"&quot;");for(var s=0;s<i.length;s++)if(o={data:i[s]},'
              'this.trigger("unselect",o))return;var u="https://e.org/a";\n')
    found = list(CodeScanner("javascript").scan(source))
    assert [(c.value, c.context) for c in found] == [("https://e.org/a", "string")]


def test_iri_in_a_regex_literal_is_a_template():
    source = 'const ok = u.match(/^https:\\/\\/e\\.org\\/[a-z]+|http:\\/\\/e\\.org:8o80\\//i);\n'
    assert codes(source, "a.js") == []
    # the "/" that ends the regex ends what is searched in it
    source = 'if (x = /urn:uuid:[0-9A-F]{8}$/i.test(u)) y = "a\'b";\n'
    found = list(CodeScanner("javascript").scan(source))
    assert [(c.value, c.template) for c in found] == [("urn:uuid:[0-9A-F]", True)]


def test_percent_escape_before_a_letter_is_no_format():
    # "%41s" is the escape of "A" followed by "s", not a printf "%s"
    assert ("IRI404", "%41") in codes("http://e.org/%41s\n", "notes.txt")
    assert codes("http://e.org/%s/x\n", "notes.txt") == []
