"""Fixes: --fix, --unsafe-fixes, --diff; merging, convergence and safety."""
import os
import stat

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irilint.engine import Engine, check_reference
from irilint.fix_loop import fixes_to_apply
from irilint.fileio import apply_edits
from iri_strategies import iri_reference, uri_key
from cli_run import run

PROPERTY = settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))


def test_fix_applies_safe_fixes_only(tmp_path):
    f = tmp_path / "doc.txt"
    f.write_text("a http://e.org/100% b\nc http://e.org/x\u202ey d\n", encoding="utf-8")
    code, out, err = run(["check", "--fix", str(f)])
    text = f.read_text(encoding="utf-8")
    assert "http://e.org/100%25" in text
    assert "\u202e" in text  # removing a bidi control is unsafe: not applied
    assert "Fixed 1 problem" in err
    assert code == 1  # the bidi control remains


def test_unsafe_fixes_need_the_flag(tmp_path):
    f = tmp_path / "doc.txt"
    f.write_text("c http://e.org/x\u202ey d\n", encoding="utf-8")
    code, _, _ = run(["check", "--fix", "--unsafe-fixes", "--select", "bidi-control", str(f)])
    assert f.read_text(encoding="utf-8") == "c http://e.org/xy d\n"
    assert code == 0
    assert run(["check", "--unsafe-fixes", str(f)])[0] == 2  # needs --fix or --diff


def test_diff_writes_nothing(tmp_path):
    f = tmp_path / "doc.txt"
    f.write_text("a http://e.org/100% b\n", encoding="utf-8")
    before = f.read_bytes()
    code, out, _ = run(["check", "--diff", str(f)])
    assert f.read_bytes() == before
    assert "-a http://e.org/100% b" in out
    assert "+a http://e.org/100%25 b" in out


def test_stdin_fix_writes_fixed_text_to_stdout():
    code, out, err = run(["check", "--fix", "-"], stdin="x http://e.org/%7Euser/100%\n")
    assert out == "x http://e.org/~user/100%25\n"
    assert "IRI" not in out


@pytest.mark.parametrize(
    "raw, encoding",
    [
        (b"line1\r\nsee http://e.org/100%\r\nline3\r\n", None),
        (b"\xef\xbb\xbfsee http://e.org/100%\nend", None),
        (b"a\rb\r\nsee http://e.org/100%\nc\r", None),
        ("\ufeffsee http://e.org/100%\r\n".encode("utf-16-le"), "utf-16-le-bom"),
    ],
)
def test_fix_preserves_bytes_outside_the_edit(tmp_path, raw, encoding):
    if encoding == "utf-16-le-bom":
        raw = b"\xff\xfe" + raw[2:]
    f = tmp_path / "doc.txt"
    f.write_bytes(raw)
    os.chmod(f, 0o640)
    run(["check", "--fix", str(f)])
    new = f.read_bytes()
    if encoding == "utf-16-le-bom":
        assert new == raw.replace("100%".encode("utf-16-le"), "100%25".encode("utf-16-le"))
    else:
        assert new == raw.replace(b"100%", b"100%25")
    assert stat.S_IMODE(os.stat(f).st_mode) == 0o640


def test_atomic_write_failure_leaves_original(tmp_path, monkeypatch):
    f = tmp_path / "doc.txt"
    f.write_text("see http://e.org/100%\n", encoding="utf-8")
    before = f.read_bytes()

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    # the step that puts the new file in place: a swap where the system has
    # one (irilint.fileio._exchange), else a rename
    from irilint import fileio

    monkeypatch.setattr(os, "replace", boom)
    monkeypatch.setattr(fileio, "_exchange", boom)
    code, _, err = run(["check", "--fix", str(f)])
    assert code == 2
    assert str(f) in err
    assert f.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.txt"]


def test_fixes_of_one_reference_do_not_overlap():
    findings = check_reference("HTTP://E.ORG/%7e%e2%82%ac/100%", select=["ALL"])
    edits = fixes_to_apply(findings)
    spans = [(e.start, e.end) for e in edits]
    for (s1, e1), (s2, e2) in zip(spans, spans[1:]):
        assert e1 <= s2


def fix_until_stable(text, engine, unsafe=False, passes=10):
    for _ in range(passes):
        res = engine.check_text(text, path="doc.txt", run_state={})
        edits = fixes_to_apply(res.findings, unsafe=unsafe)
        if not edits:
            return text, True
        text = apply_edits(text, edits)
    return text, False


@PROPERTY
@given(iri_reference())
def test_fix_converges(iri):
    """After --fix, checking again finds nothing more to fix."""
    engine = Engine()
    doc = "see %s here\n" % iri
    fixed, stable = fix_until_stable(doc, engine)
    assert stable
    res = engine.check_text(fixed, path="doc.txt", run_state={})
    assert fixes_to_apply(res.findings) == []


@PROPERTY
@given(iri_reference())
def test_every_safe_fix_preserves_the_uri(iri):
    """What "safe" means: the URI the IRI maps to does not change, up to
    RFC 3986 s6.2.2 equivalence."""
    findings = check_reference(iri, select=["ALL"])
    before = uri_key(iri)
    for f in findings:
        for fx in f.fixes:
            if not fx.safe:
                continue
            after = apply_edits(iri, sorted(fx.edits, key=lambda e: e.start))
            assert uri_key(after) == before, (f.rule.name, fx.title, iri, after)


def test_fix_on_a_copy_of_the_test_tree_converges(tmp_path):
    """Done-criterion of the fixes issue: --fix on a copy of a test tree,
    then nothing more to fix."""
    import shutil

    here = os.path.dirname(__file__)
    shutil.copytree(os.path.join(here, "samples"), tmp_path / "samples")
    (tmp_path / "more.md").write_text(
        "[a](HTTP://Example.COM:80/a/./b/../c/%7euser/100%)\n"
        "<a href='http://e.org/re\u0301sume\u0301?q=%e2%82%ac'>x</a>\n", encoding="utf-8")
    (tmp_path / "page.html").write_text(
        '<a href="http://e.org/x%2Fy/%41/100%">t</a> <!-- irilint: ignore[bidi-control] -->\n',
        encoding="utf-8")
    first = run(["check", "--fix", "--select", "ALL", str(tmp_path)])
    assert "Fixed" in first[2]
    snapshot = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    second = run(["check", "--fix", "--select", "ALL", str(tmp_path)])
    assert "Fixed" not in second[2]
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == snapshot
    # and the diff mode agrees: nothing left to change
    assert run(["check", "--diff", "--select", "ALL", str(tmp_path)])[1] == ""


@pytest.mark.parametrize("scanner, text", [
    ("markdown", "<&#x48;TTP://e.org/a> b\n"),         # "http" would make an autolink
    ("html", '<a href="&#x48;TTP://e.org/a">x</a>\n'),
])
def test_a_fix_that_rewrites_a_character_reference_is_unsafe(scanner, text):
    from irilint.config import Settings
    from irilint.scanners import get_scanner

    result = Engine().check_text(text, path="doc", settings=Settings(), scanner=get_scanner(scanner))
    [finding] = [f for f in result.findings if f.rule.name == "uppercase-scheme"]
    [fix] = finding.fixes
    assert not fix.safe and "escape" in fix.title
    assert fixes_to_apply(result.findings) == [] or all(
        e.start >= text.index("TTP") for e in fixes_to_apply(result.findings))


def test_a_fix_next_to_a_character_reference_stays_safe():
    from irilint.config import Settings
    from irilint.scanners import get_scanner

    text = '<a href="HTTP://e.org/?a=1&amp;b=2">x</a>\n'
    result = Engine().check_text(text, path="doc", settings=Settings(), scanner=get_scanner("html"))
    [finding] = [f for f in result.findings if f.rule.name == "uppercase-scheme"]
    assert finding.fixes[0].safe
    assert apply_edits(text, fixes_to_apply(result.findings)) == \
        '<a href="http://e.org/?a=1&amp;b=2">x</a>\n'


@PROPERTY
@given(st.lists(st.tuples(st.integers(0, 40), st.sampled_from([0, 0, 1, 2, 3, 7])), max_size=40))
def test_taken_spans_agree_with_testing_every_chosen_edit(spans):
    """fixes_to_apply's overlap test looks only at neighbours: it must
    answer as the pairwise test over every chosen span does."""
    from irilint.fix_loop import _overlaps, _TakenSpans

    taken, chosen = _TakenSpans(), []
    for start, width in spans:
        end = start + width
        expected = any(_overlaps(start, end, a, b) for a, b in chosen)
        assert taken.overlaps(start, end) == expected, (start, end, chosen)
        if not expected:
            taken.add(start, end)
            chosen.append((start, end))


@pytest.mark.parametrize("scanner, text", [
    ("c", "// \\FTP://e.org/ x\n"),      # "\ftp" would be read as a roff font escape
    ("text", "see \\FTP://e.org/ now\n"),
])
def test_a_fix_of_the_character_after_a_backslash_is_unsafe(scanner, text):
    from irilint.config import Settings
    from irilint.scanners import get_scanner

    result = Engine().check_text(text, path="doc", settings=Settings(), scanner=get_scanner(scanner))
    [finding] = [f for f in result.findings if f.rule.name == "uppercase-scheme"]
    assert not finding.fixes[0].safe and "backslash" in finding.fixes[0].title
    assert fixes_to_apply(result.findings) == []
    # an escaped backslash escapes nothing: the fix stays safe
    doubled = text.replace("\\", "\\\\")
    result = Engine().check_text(doubled, path="doc", settings=Settings(), scanner=get_scanner(scanner))
    [finding] = [f for f in result.findings if f.rule.name == "uppercase-scheme"]
    assert finding.fixes[0].safe


@PROPERTY
@given(st.text(alphabet="ab", max_size=30).flatmap(
    lambda old: st.tuples(st.just(old), st.text(alphabet="ab", min_size=len(old), max_size=len(old)))))
def test_differing_runs_are_maximal_and_rebuild_the_new_text(pair):
    from irilint.findings import differing_runs

    old, new = pair
    runs = differing_runs(old, new)
    rebuilt = list(old)
    for i, j in runs:
        assert i < j and all(old[k] != new[k] for k in range(i, j))
        assert (i == 0 or old[i - 1] == new[i - 1]) and (j == len(old) or old[j] == new[j])
        rebuilt[i:j] = new[i:j]
    assert "".join(rebuilt) == new
