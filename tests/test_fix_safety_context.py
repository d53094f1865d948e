"""Fix safety depends on where a reference is: a string literal in code, a
value in a JSON/YAML/TOML file or a Turtle term is data, which a program
reads as written, so ``--fix`` leaves it alone; comments, docstrings and
prose keep their safe fixes."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irilint.engine import Engine
from irilint.fix_loop import fixes_to_apply
from irilint.scanners import get_scanner
from irilint.scanners.base import DATA_CONTEXTS
from iri_strategies import iri_reference
from cli_run import run

PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))

#: A reference with safe fixes only (uppercase scheme and host), and what
#: they make of it.
IRI = "HTTP://Example.COM/x"
FIXED = "http://example.com/x"


# Each file puts IRI in data places ({D}) and prose places ({P}); --fix must
# fix exactly the prose places, --unsafe-fixes both.
FILES = {
    "python": ("mod.py",
               '"""Module docs: {P}."""\n'
               "import x  # see {P}\n"
               "URL = \"{D}\"\n"
               "OTHER = '{D}'\n"
               "\n\n"
               "def f():\n"
               "    '''Fetch {P}.'''\n"
               "    return f\"{D}\" + r'''{D}'''\n"),
    "javascript": ("app.js",
                   "// see {P}\n"
                   "/* and {P} */\n"
                   "const u = \"{D}\";\n"
                   "const v = '{D}', w = `{D}/${{x}}`;\n"),
    "go": ("main.go",
           "package main\n\n"
           "// Home is {P}.\n"
           "var home = \"{D}\"\n"
           "var raw = `{D}`\n"),
    "rust": ("lib.rs",
             "/// Fetches {P}.\n"
             "//! crate docs {P}\n"
             "fn main() { let u = \"{D}\"; /* {P} */ }\n"),
    "c": ("url.c",
          "/* the endpoint, {P} */\n"
          "static const char *url = \"{D}\"; // {P}\n"),
    "shell": ("fetch.sh",
              "#!/bin/sh\n"
              "# download {P}\n"
              "curl \"{D}\" -o a\n"
              "curl '{D}' -o b\n"
              "wget {D}\n"),
    "json": ("conf.jsonc",
             "// the home page, {P}\n"
             "{{\"homepage\": \"{D}\", \"about\": \"see {D}\", \"{D}\": 1}} /* {P} */\n"),
    "yaml": ("conf.yaml",
             "# home {P}\n"
             "url: \"{D}\"\n"
             "about: 'see {D}'\n"
             "plain: see {D}  # and {P}\n"
             "list: [{D}]\n"
             "block: |\n  text {D}\n"),
    "toml": ("conf.toml",
             "# home {P}\n"
             "homepage = \"{D}\"  # {P}\n"
             "about = 'see {D}'\n"
             "long = \"\"\"\n{D}\"\"\"\n"),
    "html": ("page.html",
             "<p>See {P}.</p><a href=\"{P}\">x</a>\n"
             "<script>var u = \"{D}\"; // {D}\n</script>\n"
             "<style>a {{background: url({D})}}</style>\n"),
    "turtle": ("data.ttl",
               "# data about {P}\n"
               "@prefix ex: <{D}#> .\n"
               "<{D}> ex:seeAlso \"see {D}\" , '''{D}''' . # {P}\n"),
}


def render(template, data, prose):
    return template.replace("{D}", data).replace("{P}", prose).replace("{{", "{").replace("}}", "}")


@pytest.mark.parametrize("kind", sorted(FILES))
def test_fix_leaves_data_and_fixes_prose(tmp_path, kind):
    name, template = FILES[kind]
    f = tmp_path / name
    notes = tmp_path / "notes.md"
    original = render(template, IRI, IRI)
    f.write_text(original, encoding="utf-8")
    notes.write_text("See %s for details.\n" % IRI, encoding="utf-8")
    run(["check", "--fix", str(f), str(notes)])
    assert f.read_text(encoding="utf-8") == render(template, IRI, FIXED)
    assert notes.read_text(encoding="utf-8") == "See %s for details.\n" % FIXED


@pytest.mark.parametrize("kind", sorted(FILES))
def test_unsafe_fixes_change_the_data_too(tmp_path, kind):
    name, template = FILES[kind]
    f = tmp_path / name
    f.write_text(render(template, IRI, IRI), encoding="utf-8")
    code, _, _ = run(["check", "--fix", "--unsafe-fixes", str(f)])
    assert f.read_text(encoding="utf-8") == render(template, FIXED, FIXED)
    assert code == 0


@pytest.mark.parametrize("kind", sorted(FILES))
def test_data_fixes_are_unsafe_and_say_why(kind):
    name, template = FILES[kind]
    text = render(template, IRI, "http://prose.example/")
    result = Engine().check_text(text, path=name)
    fixes = [fx for f in result.findings for fx in f.fixes]
    assert fixes and not any(fx.safe for fx in fixes)
    assert all("(unsafe: changes " in fx.title and ", which is data)" in fx.title for fx in fixes)


def test_title_names_the_kind_of_data():
    found = Engine().check_text('u = "HTTP://e.example/"\n', path="a.py").findings
    assert [fx.title for f in found for fx in f.fixes] == [
        "Lowercase the scheme to 'http' (unsafe: changes a string literal, which is data)"]
    found = Engine().check_text("curl HTTP://e.example/\n", path="a.sh").findings
    assert [fx.title for f in found for fx in f.fixes] == [
        "Lowercase the scheme to 'http' (unsafe: changes an unquoted value, which is data)"]
    found = Engine().check_text('{"$ref": "HTTP://e.example/"}\n', path="a.json").findings
    assert [fx.title for f in found for fx in f.fixes] == [
        "Lowercase the scheme to 'http' (unsafe: changes a value, which is data)"]
    found = Engine().check_text("<HTTP://e.example/> a <x> .\n", path="a.ttl").findings
    assert [fx.title for f in found for fx in f.fixes] == [
        "Lowercase the scheme to 'http' (unsafe: changes an RDF term, which is data)"]
    found = Engine().check_text("<script>u = 'HTTP://e.example/'</script>\n", path="a.html").findings
    assert [fx.title for f in found for fx in f.fixes] == [
        "Lowercase the scheme to 'http' (unsafe: changes code in a script or style element, "
        "which is data)"]


def test_tex_text_is_prose():
    """In TeX the text outside comments is the document, not code."""
    found = Engine().check_text("See \\url{HTTP://e.example/}.\n", path="a.tex").findings
    assert [fx.safe for f in found for fx in f.fixes] == [True]


def test_memo_keeps_data_and_prose_apart():
    """The engine's per-reference memo is keyed by the context: the same
    reference in a string and in a comment of one file, checked twice."""
    engine = Engine(memo_size=1000)
    text = 'u = "%s"  # %s\n' % (IRI, IRI)
    for _ in range(2):
        found = engine.check_text(text, path="a.py").findings
        by_place = {}
        for f in found:
            place = "data" if f.start < text.index("#") else "prose"
            by_place.setdefault(place, set()).update(fx.safe for fx in f.fixes)
        assert by_place == {"data": {False}, "prose": {True}}
    assert engine.memo.hits > 0


def test_rules_command_says_where_fixes_are_unsafe():
    code, out, _ = run(["rules", "--format", "json"])
    by_code = {r["code"]: r for r in json.loads(out)}
    assert code == 0
    assert (by_code["IRI601"]["fix"], by_code["IRI601"]["fix_in_data"]) == ("safe", "unsafe")
    assert (by_code["IRI001"]["fix"], by_code["IRI001"]["fix_in_data"]) == ("sometimes", "unsafe")
    assert (by_code["IRI101"]["fix"], by_code["IRI101"]["fix_in_data"]) == ("unsafe", "unsafe")
    assert (by_code["IRI004"]["fix"], by_code["IRI004"]["fix_in_data"]) == ("none", "none")
    # removing an unused suppression: safe from a comment of its own only
    assert (by_code["IRI901"]["fix"], by_code["IRI901"]["fix_in_data"]) == ("safe", "sometimes")

    _, out, _ = run(["rules"])
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert "fix:safe* " in lines["IRI601"] and "fix:sometimes* " in lines["IRI001"]
    assert "fix:unsafe " in lines["IRI101"] and "fix:safe* " in lines["IRI901"]
    assert "fix:none " in lines["IRI004"]
    assert out.splitlines()[-1] == (
        "* unsafe, or only sometimes safe, in data: in code outside comments and docstrings, "
        "in JSON/YAML/TOML values, in Turtle terms and literals")

    _, out, _ = run(["explain", "uppercase-host"])
    assert "Fix: safe (unsafe in data: in code outside comments" in out


def test_statistics_mark_fixable_only_what_fix_would_fix(tmp_path):
    code_file = tmp_path / "a.py"
    code_file.write_text('u = "%s"\n' % IRI, encoding="utf-8")
    notes = tmp_path / "notes.md"
    notes.write_text("See %s.\n" % IRI, encoding="utf-8")

    def marks(path):
        _, out, _ = run(["check", "--statistics", str(path)])
        return {line.split()[1]: "[*]" in line for line in out.splitlines()
                if line.split()[1:2] and line.split()[1].startswith("IRI")}
    assert marks(code_file) == {"IRI601": False, "IRI602": False}
    assert marks(notes) == {"IRI601": True, "IRI602": True}


def test_sarif_says_unsafe_once(tmp_path):
    f = tmp_path / "a.py"
    f.write_text('u = "%s"  # %s\n' % (IRI, IRI), encoding="utf-8")
    _, out, _ = run(["check", "--format", "sarif", str(f)])
    titles = [fx["description"]["text"] for res in json.loads(out)["runs"][0]["results"]
              for fx in res.get("fixes", ())]
    assert sorted(titles) == sorted(
        ["Lowercase the scheme to 'http'", "Lowercase the host to 'example.com'"] +
        ["Lowercase the scheme to 'http' (unsafe: changes a string literal, which is data)",
         "Lowercase the host to 'example.com' (unsafe: changes a string literal, which is data)"])


def test_unused_suppression_in_a_string_is_left_alone(tmp_path):
    """Removing an unused ``irilint: ignore`` is safe in a comment of its
    own; one that is not (in code: maybe in a string) is unsafe."""
    f = tmp_path / "test_marks.py"
    text = 'MARK = "# irilint: ignore[bidi]"\nx = 1  # irilint: ignore[bidi]\n'
    f.write_text(text, encoding="utf-8")
    run(["check", "--fix", str(f)])
    assert f.read_text(encoding="utf-8") == 'MARK = "# irilint: ignore[bidi]"\nx = 1\n'
    found = Engine().check_text(text, path="test_marks.py").findings
    assert [(fx.title, fx.safe) for f in found for fx in f.fixes] == [
        ("Remove unused suppression (unsafe: it is not alone in a comment, and may be in a string, "
         "which is data)", False),
        ("Remove unused suppression", True)]
    run(["check", "--fix", "--unsafe-fixes", str(f)])
    assert f.read_text(encoding="utf-8") == 'MARK = "# "\nx = 1\n'
    # in prose the marker alone is removed, safely, as before
    found = Engine().check_text("see irilint: ignore[bidi] here\n", path="notes.md").findings
    assert [fx.safe for f in found for fx in f.fixes] == [True]


# ---------------------------------------------------------------- docstrings


def contexts(text):
    return [(c.value, c.context) for c in get_scanner("python").scan(text)]


def test_python_docstrings_are_prose():
    text = ('#!/usr/bin/env python\n# a comment\n\n'
            'r"""Module http://m.example/ docs."""\n'
            "import os\n\n\n"
            "@decorator\n"
            "class A(Base):  # note\n"
            "    # comment before\n\n"
            "    '''Class http://c.example/'''\n\n"
            "    async def g(self,\n"
            "                x: Dict[str, int] = {},\n"
            "                ) -> None:\n"
            '        u"""Method http://g.example/\n'
            '        more."""\n'
            "        return 1\n\n"
            "def h(a, \\\n"
            "      b):\n"
            "    'Function http://h.example/'  # one line\n")
    assert contexts(text) == [
        ("http://m.example/", "docstring"), ("http://c.example/", "docstring"),
        ("http://g.example/", "docstring"), ("http://h.example/", "docstring")]


def test_python_strings_that_are_not_docstrings_are_data():
    text = ("import os\n"
            '"""After a statement http://a.example/"""\n'
            "x = '''assigned http://b.example/'''\n"
            "def f():\n"
            "    return 1\n"
            "    'not first http://c.example/'\n"
            "if x:\n"
            "    'after if http://d.example/'\n"
            "def g():\n"
            '    f"""f-string http://e.example/"""\n'
            "def h():\n"
            '    b"""bytes http://f.example/"""\n'
            "def i():\n"
            "    'then more http://g.example/'.format(1)\n"
            "def j():\n"
            '    "one" "two http://h.example/"\n'
            "d = {\n"
            '    "key":\n'
            '        "a value http://i.example/"}\n'
            "call(\n"
            '    "an argument http://j.example/")\n'
            "define = lambda: (\n"
            "    'x')\n"
            "class_ = 1\n"
            "def k(x='('):\n"
            "    'unbalanced header http://k.example/'\n")
    assert contexts(text) == [
        ("http://%s.example/" % c, "string") for c in "abcdefghijk"]


def test_python_docstring_fixes_are_safe_and_string_fixes_are_not():
    text = ('def f():\n    """See HTTP://d.example/."""\n    return "HTTP://s.example/"\n')
    found = Engine().check_text(text, path="a.py").findings
    safety = {f.iri: [fx.safe for fx in f.fixes] for f in found}
    assert safety == {"HTTP://d.example/": [True], "HTTP://s.example/": [False]}


@pytest.mark.parametrize("language, text, context", [
    ("python", "x = 1\n# see http://x.example/\n", "comment"),
    ("python", "x = 'http://x.example/'\n", "string"),
    ("c", "/* http://x.example/ */", "comment"),
    ("c", "char *s = \"http://x.example/\";", "string"),
    ("shellscript", "curl http://x.example/\n", "unquoted"),
    ("makefile", "URL = http://x.example/\n", "unquoted"),
    ("latex", "\\url{http://x.example/}\n", "bare"),
    ("yaml", "u: http://x.example/\n", "unquoted"),
    ("yaml", "# http://x.example/\n", "comment"),
    ("toml", "# http://x.example/\n", "comment"),
    ("toml", "u = 'http://x.example/'\n", "string"),
    ("turtle", "<http://x.example/> a ex:y .", "turtle-iri"),
])
def test_contexts_say_data_or_prose(language, text, context):
    (c,) = get_scanner(language).scan(text)
    assert c.context == context
    assert c.is_data == (context in ("string", "unquoted", "turtle-iri"))


@pytest.mark.parametrize("name", ["text", "markdown", "html", "rst"])
def test_prose_scanners_give_no_data_context(name):
    docs = {"text": "a http://x.example/ <http://y.example/>\n",
            "markdown": "[a](http://x.example/) `http://c.example/` <http://y.example/>\n",
            "html": '<a href="http://x.example/">http://y.example/</a>\n',
            "rst": "`a <http://x.example/>`_ http://y.example/\n"}
    found = get_scanner(name).scan(docs[name])
    assert found and not any(c.is_data or c.context in DATA_CONTEXTS for c in found)


# ---------------------------------------------------------------- properties

#: Where a generated IRI goes in a string literal or value, per file type.
LITERALS = [
    ("a.py", 'x = "%s"\n'), ("a.py", "def f():\n    return '''%s'''\n"),
    ("a.js", "const u = `%s`;\n"), ("a.go", 'var u = "%s"\n'), ("a.rs", 'let u = "%s";\n'),
    ("a.c", 'char *u = "%s";\n'), ("a.sh", 'curl "%s"\n'), ("a.json", '{"url": "%s"}\n'),
    ("a.json", '["see %s"]\n'), ("a.yaml", 'k: "%s"\n'), ("a.toml", 'k = "%s"\n'),
    ("a.ttl", '<x> <y> "%s" .\n'), ("a.ttl", "<%s> a <y> .\n"),
]


@PROPERTY
@given(iri_reference(), st.sampled_from(LITERALS))
def test_no_fix_of_an_iri_in_a_string_literal_is_safe(iri, place):
    path, template = place
    text = template % iri
    result = Engine().check_text(text, path=path)
    assert all(not fx.safe for f in result.findings for fx in f.fixes)
    assert fixes_to_apply(result.findings, unsafe=False) == []


@PROPERTY
@given(iri_reference())
def test_the_same_iri_in_a_comment_keeps_its_safe_fixes(iri):
    """Only the place changes the safety: a fix safe in a comment is
    offered unsafe, with the same edits, in the string literal."""
    from hypothesis import assume

    from irilint.scanners import get_scanner

    # Prose ends a reference where a reader does (an unbalanced ")"), a
    # string literal's quotes delimit it: compare only references that
    # both places see whole.
    code = get_scanner("python")
    assume([c.value for c in code.scan("# %s\n" % iri)] == [c.value for c in code.scan('x = "%s"\n' % iri)])
    engine = Engine()
    in_comment = engine.check_text("# %s\n" % iri, path="a.py").findings
    in_string = engine.check_text('x = "%s"\n' % iri, path="b.py").findings
    shift = len('x = "') - len("# ")

    def fixes(found, delta):
        return sorted((f.rule.code, fx.title.split(" (unsafe")[0],
                       tuple((e.start + delta, e.end + delta, e.new_text) for e in fx.edits))
                      for f in found for fx in f.fixes)
    assert fixes(in_string, 0) == fixes(in_comment, shift)


# ---------------------------------------------------------------- the user report

REQUESTS_LIKE = '''\
"""Tests of URL preparation, in the style of requests' test suite."""
import urllib.parse


def test_idna_host_is_sent_as_its_a_label():
    """A Japanese host is sent as its A-label, http://XN--hckqz9bzb1cyrb.jp/."""
    host = "\\u30b8\\u30a7\\u30fc\\u30d4\\u30fc\\u30cb\\u30c3\\u30af.jp"
    # expected: http://XN--hckqz9bzb1cyrb.jp/ (the A-label, lowercase)
    assert "http://%s/" % host.encode("idna").decode("ascii") == "http://xn--hckqz9bzb1cyrb.jp/"


def test_mixed_case_url_keeps_the_case_of_its_host():
    url = "HTTP://Example.COM/Path"
    parts = urllib.parse.urlsplit(url)
    assert parts.scheme == "http"  # urlsplit lowercases the scheme only
    assert parts.netloc == "Example.COM"
    assert url == "HTTP://Example.COM/Path"
'''


def run_tests(text, path):
    """Run the file's test functions; their names, all passed."""
    namespace = {"__name__": "sample"}
    exec(compile(text, str(path), "exec"), namespace)
    names = sorted(k for k in namespace if k.startswith("test_"))
    for name in names:
        namespace[name]()
    return names


def test_user_report_test_file_still_passes_after_fix(tmp_path):
    f = tmp_path / "test_requests_like.py"
    f.write_text(REQUESTS_LIKE, encoding="utf-8")
    assert run_tests(REQUESTS_LIKE, f) == [
        "test_idna_host_is_sent_as_its_a_label", "test_mixed_case_url_keeps_the_case_of_its_host"]
    run(["check", "--fix", str(f)])
    fixed = f.read_text(encoding="utf-8")
    # the docstring and the comment are prose: fixed
    assert "A Japanese host is sent as its A-label, http://\u30b8\u30a7\u30fc\u30d4\u30fc\u30cb\u30c3\u30af.jp/." \
        in fixed
    assert "# expected: http://\u30b8\u30a7\u30fc\u30d4\u30fc\u30cb\u30c3\u30af.jp/ (the A-label" in fixed
    # the expected values are data: byte-identical, and the tests still pass
    assert fixed.splitlines()[8:] == REQUESTS_LIKE.splitlines()[8:]
    assert '== "http://xn--hckqz9bzb1cyrb.jp/"' in fixed
    assert 'url = "HTTP://Example.COM/Path"' in fixed
    run_tests(fixed, f)


def test_user_report_literals_change_only_with_unsafe_fixes(tmp_path):
    f = tmp_path / "test_requests_like.py"
    f.write_text(REQUESTS_LIKE, encoding="utf-8")
    run(["check", "--fix", "--unsafe-fixes", str(f)])
    fixed = f.read_text(encoding="utf-8")
    assert 'url = "http://example.com/Path"' in fixed
    assert '"http://xn--hckqz9bzb1cyrb.jp/"' not in fixed
    with pytest.raises(AssertionError):
        run_tests(fixed, f)  # what the user saw: the expected values changed
