"""``irilint: ignore`` in each format's own comment syntax, and unused ones."""
import pytest

from irilint.engine import Engine
from irilint.fix_loop import fixes_to_apply
from irilint.fileio import apply_edits

BAD = "http://e.org/100%"


def names(text, path):
    return [(f.rule.name, f.start) for f in Engine().check_text(text, path=path).findings]


CASES = [
    ("doc.md", "[x](%s) <!-- irilint: ignore[bad-percent-encoding] -->\n" % BAD),
    ("doc.md", "see %s <!-- irilint: ignore -->\n" % BAD),
    ("page.html", '<a href="%s">x</a> <!-- irilint: ignore[IRI401] -->\n' % BAD),
    ("doc.rst", "`x <%s>`_ .. irilint: ignore[percent-encoding]\n" % BAD),
    ("doc.rst", ".. irilint: ignore[percent-encoding]\n\n`x <%s>`_\n" % BAD),
    ("conf.toml", 'url = "%s"  # irilint: ignore[bad-percent-encoding]\n' % BAD),
    ("mod.py", 'URL = "%s"  # irilint: ignore[IRI4]\n' % BAD),
    ("notes.txt", "see %s # irilint: ignore\n" % BAD),
    ("app.js", 'const u = "%s"; // irilint: ignore[bad-percent-encoding]\n' % BAD),
    ("data.yaml", "url: %s # irilint: ignore\n" % BAD),
]


@pytest.mark.parametrize("path, text", CASES)
def test_suppression_on_the_same_line(path, text):
    assert "bad-percent-encoding" not in [n for n, _ in names(text, path)]
    # and without the comment the finding is there
    bare = text.replace("irilint:", "nothing:")
    assert "bad-percent-encoding" in [n for n, _ in names(bare, path)]


def test_suppression_applies_to_its_line_only():
    text = "%s <!-- irilint: ignore -->\n%s\n" % (BAD, BAD)
    found = Engine().check_text(text, path="doc.md").findings
    assert [f.rule.name for f in found] == ["bad-percent-encoding"]
    assert found[0].start > text.index("\n")


def test_suppression_of_another_rule_does_not_hide():
    text = "see %s <!-- irilint: ignore[bidi-control] -->\n" % BAD
    found = [f.rule.name for f in Engine().check_text(text, path="doc.md").findings]
    assert "bad-percent-encoding" in found
    assert "unused-suppression" in found


def test_ignore_file():
    text = "<!-- irilint: ignore-file -->\n%s\n%s\n" % (BAD, BAD)
    assert Engine().check_text(text, path="doc.md").findings == []


def test_ignore_file_with_rules():
    text = "<!-- irilint: ignore-file[bad-percent-encoding] -->\n%s http://e.org/%%e2%%82%%ac\n" % BAD
    found = [f.rule.name for f in Engine().check_text(text, path="doc.md").findings]
    assert "bad-percent-encoding" not in found
    assert "lowercase-percent-encoding" in found


@pytest.mark.parametrize(
    "path, text, expected",
    [
        ("doc.md", "fine http://e.org/ <!-- irilint: ignore[bidi-control] -->\n", "fine http://e.org/\n"),
        ("mod.py", 'U = "http://e.org/"  # irilint: ignore\n', 'U = "http://e.org/"\n'),
        ("notes.txt", "x # irilint: ignore\ny\n", "x\ny\n"),
        ("doc.rst", "text .. irilint: ignore\n", "text\n"),
        ("doc.rst", "a\n.. irilint: ignore[IRI101]\nb\n", "a\nb\n"),
    ],
)
def test_unused_suppression_reported_and_fix_removes_it(path, text, expected):
    found = Engine().check_text(text, path=path).findings
    unused = [f for f in found if f.rule.name == "unused-suppression"]
    assert len(unused) == 1
    assert "suppresses nothing" in unused[0].message
    fixed = apply_edits(text, fixes_to_apply(unused))
    assert fixed == expected
    assert unused[0].fixes[0].safe


def test_suppression_message_shows_invisible_characters_by_code_point():
    from irilint.engine import check_text

    # a zero width joiner typed into the selector of a Persian comment: no
    # rule has that name, so it is reported as unknown (not as unused)
    text = "<!-- توضیح: irilint: ignore[IRI\u200d101] -->\nسلام\n"
    (f,) = [f for f in check_text(text, path="fa.md") if f.rule.name in ("unused-suppression",
                                                                          "unknown-suppression")]
    assert f.rule.name == "unknown-suppression"
    assert "IRI<U+200D>101" in f.message and "\u200d" not in f.message
