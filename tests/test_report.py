"""``irilint report``: the review report, in HTML and Markdown.

The documents under review are hostile: every test here feeds markup,
bidi controls and look-alike characters through the report and checks that
they come out as inert, visible text.  The HTML is also loaded in headless
Chromium (Debian package ``chromium``), which must be installed: the test
fails, never skips, without it.
"""
from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irilint import report
from irilint.report import (
    MARKDOWN_LIMIT,
    Card,
    LookalikeGroup,
    Occurrence,
    ReportData,
    FileReport,
    characters,
    chip_label,
    collect,
    host_identity,
    is_bidi,
    is_invisible,
    lookalike_groups,
    md_code,
    md_text,
    render_html,
    render_markdown,
    visual_order,
)

RLO = "\u202e"
HOSTILE = "</script><script>alert(1)</script><img src=x onerror=alert(1)>"


# ---------------------------------------------------------------------------
# Characters
# ---------------------------------------------------------------------------

def test_chip_labels():
    assert chip_label(RLO) == "U+202E RIGHT-TO-LEFT OVERRIDE"
    assert chip_label("\u0430") == "U+0430 CYRILLIC SMALL LETTER A · Cyrillic"
    assert chip_label("\u05e9") == "U+05E9 HEBREW LETTER SHIN · Hebrew"


def test_invisible_characters():
    for ch in (RLO, "\u200b", "\u200e", "\u2066", "\u00ad", "\ufeff", "\x00", "\x1b", "\u3000", "\u2028",
               "\U000e0041", "\ue000"):
        assert is_invisible(ch), "U+%04X" % ord(ch)
    for ch in ("a", " ", "/", "\u0430", "\u05e9", "\u00e9"):
        assert not is_invisible(ch), "U+%04X" % ord(ch)


def test_bidi_and_visual_order():
    assert not is_bidi("http://example.com/abc")
    assert is_bidi("http://example.com/\u05e9\u05dc")
    assert is_bidi("http://exa" + RLO + "mple.com")  # an override reorders too
    assert is_bidi("http://e.org/\u0661")  # AN
    # python-bidi, base direction L: the Hebrew run is reversed
    assert visual_order("http://e.org/\u05d0\u05d1/x") == "http://e.org/\u05d1\u05d0/x"
    assert visual_order("http://exa" + RLO + "mple.com/abc") == "http://exa" + RLO + "cba/moc.elpm"


def test_characters_decodes_escapes_and_labels():
    infos = {i.char: i for i in characters("http://xn--80ak6aa92e.com/%E2%80%AE/\u0430")}
    assert infos[RLO].written_as == ["%E2%80%AE"]
    assert infos[RLO].invisible
    assert infos["\u0430"].written_as == ["xn--80ak6aa92e", "literal"]
    assert infos["\u0430"].scripts == "Cyrillic"
    assert infos["\u0430"].looks_like == "a"
    assert infos["\u04cf"].label == "U+04CF CYRILLIC SMALL LETTER PALOCHKA"


def test_host_identity():
    assert host_identity("http://XN--80AK6AA92E.com./x") == "\u0430\u0440\u0440\u04cf\u0435.com"
    assert host_identity("HTTP://Example.COM:80/") == "example.com"
    assert host_identity("http://[::1]/") is None
    assert host_identity("/relative") is None


def test_lookalike_groups():
    occ = [
        Occurrence("a.md", 1, 1, "https://paypal.com/login"),
        Occurrence("b.md", 2, 5, "https://\u0440\u0430\u0443\u0440\u0430l.com/"),
        Occurrence("c.md", 3, 1, "https://PayPal.com/other"),  # the same host, other case
        Occurrence("c.md", 4, 1, "http://example.com/a"),
        Occurrence("c.md", 5, 1, "http://example.com/a\u200b"),  # differs by an invisible char
        Occurrence("c.md", 6, 1, "http://example.com/b"),
    ]
    groups = lookalike_groups(occ)
    hosts = [g for g in groups if g.kind == "host"]
    assert len(hosts) == 1
    assert [v for v, _ in hosts[0].variants] == ["paypal.com", "\u0440\u0430\u0443\u0440\u0430l.com"]
    assert [o.path for o in hosts[0].variants[0][1]] == ["a.md", "c.md"]
    iris = [g for g in groups if g.kind == "iri"]
    assert len(iris) == 1
    assert sorted(v for v, _ in iris[0].variants) == ["http://example.com/a", "http://example.com/a\u200b"]


# ---------------------------------------------------------------------------
# A hostile tree
# ---------------------------------------------------------------------------

def _tree(root: Path) -> Path:
    docs = root / "docs"
    docs.mkdir()
    (docs / "a.md").write_text(
        "# Links\n"
        "\n"
        "Encoded: http://example.com/%E2%80%AE/x and literal http://exa" + RLO + "mple.com/abc.\n"
        "Host: https://\u0440\u0430\u0443\u0440\u0430l.com/login and https://paypal.com/login\n"
        "Punycode: http://xn--80ak6aa92e.com/\n"
        "Mixed: http://example.com/\u05e9\u05dc\u05d5\u05dDabc/x.html\n"
        "Bad: http://e.org/100% then " + HOSTILE + "\n",
        encoding="utf-8")
    (docs / "b.txt").write_text("Also https://p\u0430ypal.com/ here\n", encoding="utf-8")
    # a character reference: the scanner decodes it, the report shows both
    (docs / "page.html").write_text('<p><a href="http://e.org/a&#x202E;b">x</a></p>\n', encoding="utf-8")
    # a file name is text from the tree too
    (docs / "<img src=x onerror=alert(1)>.txt").write_text("http://e.org/%E2%80%AE\n", encoding="utf-8")
    return docs


@pytest.fixture()
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return _tree(tmp_path)


def test_collect_totals(tree):
    data = collect(["docs"])
    assert data.files_checked == 4
    by_rule = {(t.code, t.name): t for t in data.rules}
    assert by_rule[("IRI102", "bidi-control-encoded")].count == 2
    assert by_rule[("IRI102", "bidi-control-encoded")].severity == "error"
    assert by_rule[("IRI101", "bidi-control")].count == 2
    assert ("IRI401", "bad-percent-encoding") in by_rule
    paths = [f.path for f in data.files]
    assert paths == sorted(paths)
    assert os.path.join("docs", "a.md") in paths
    assert data.total == sum(t.count for t in data.rules)
    # the same host in another file is listed with where each occurs
    hosts = [g for g in data.lookalikes if g.kind == "host" and "paypal.com" in dict(g.variants)]
    assert hosts, data.lookalikes
    where = {o.path for _, occs in hosts[0].variants for o in occs}
    assert where == {os.path.join("docs", "a.md"), os.path.join("docs", "b.txt")}


def test_collect_select_and_ignore(tree):
    only = collect(["docs"], select=["IRI102"])
    assert {t.code for t in only.rules} == {"IRI102"}
    rest = collect(["docs"], ignore=["bidi"])
    assert not any(t.code.startswith("IRI1") for t in rest.rules)
    assert rest.total > 0


# ---------------------------------------------------------------------------
# HTML: inert, self-contained, chips
# ---------------------------------------------------------------------------

class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags = []
        self.text = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def _assert_inert(page: str) -> _Tags:
    p = _Tags()
    p.feed(page)
    p.close()
    names = {t for t, _ in p.tags}
    for bad in ("script", "img", "iframe", "object", "embed", "link", "base", "form", "svg", "video",
                "audio", "source", "input", "frame"):
        assert bad not in names, bad
    for tag, attrs in p.tags:
        for k, v in attrs.items():
            assert not k.startswith("on"), (tag, k)
            assert k != "src", (tag, attrs)
            assert k != "style", (tag, attrs)
            if k == "href":
                # in-page links only: the IRIs under review are never links
                assert v.startswith("#"), (tag, attrs)
        if tag == "meta" and attrs.get("http-equiv", "").lower() == "refresh":
            raise AssertionError("meta refresh")
    # nothing that loads from the network, in any attribute or in the CSS
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", page, re.I)
    assert "@import" not in page and "url(" not in page
    # no raw invisible character anywhere (they are chips)
    bad = sorted({"U+%04X" % ord(c) for c in page if c not in "\n\t" and is_invisible(c)})
    assert not bad, bad
    return p


def test_html_is_inert_and_self_contained(tree):
    page = render_html(collect(["docs"]))
    p = _assert_inert(page)
    assert page.startswith("<!DOCTYPE html>")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    text = "".join(p.text)
    # the hostile line and the hostile file name come out as text
    assert HOSTILE in text
    assert "<img src=x onerror=alert(1)>.txt" in text
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def test_html_escapes_a_hostile_iri():
    iri = "http://e.org/" + HOSTILE + RLO + "'\"&"
    card = Card(path="x.md", iri=iri, line=1, column=1, line_text=iri, iri_span=(0, len(iri)),
                marks=[(0, 4)], findings=[], literal=True)
    from irilint.findings import Finding, Severity
    from irilint.output import Reported
    from irilint.rules.registry import get_rule

    rule = get_rule("bidi-control")
    f = Finding(rule=rule, severity=Severity.ERROR, message="bad " + HOSTILE + " " + RLO,
                start=0, end=4, ref_start=0, ref_end=len(iri), iri=iri, path="x.md")
    card.findings.append(Reported("x.md", f, 1, 1, 1, 5, iri))
    data = ReportData([FileReport("<b>x.md</b>", [card], {"error": 1})], 1, 1, [], [], "0")
    page = render_html(data)
    p = _assert_inert(page)
    assert "&lt;b&gt;x.md&lt;/b&gt;" in page
    text = "".join(p.text)
    assert HOSTILE in text
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in text
    # quotes and "&" as Jinja2 (markupsafe) escapes them
    assert "&#39;&#34;&amp;" in page
    assert "'\"&" in text


def test_html_chips(tree):
    page = render_html(collect(["docs"]))
    # an invisible character: a chip in its place
    assert '<span class="chip inv">U+202E RIGHT-TO-LEFT OVERRIDE</span>' in page
    # an escape: the decoded character next to it
    assert ('<span class="esc">%E2%80%AE</span><span class="chip dec">= U+202E RIGHT-TO-LEFT OVERRIDE</span>'
            in page)
    assert ('<span class="esc">&amp;#x202E;</span><span class="chip dec">= U+202E RIGHT-TO-LEFT OVERRIDE</span>'
            in page)
    # a confusable: highlighted, with its script
    assert '<span class="chip conf">U+0430 CYRILLIC SMALL LETTER A · Cyrillic</span>' in page
    assert '<span class="conf" title="U+0430 CYRILLIC SMALL LETTER A · Cyrillic">\u0430</span>' in page
    # an xn-- label: its Unicode form next to it
    assert '<span class="esc">xn--80ak6aa92e</span><span class="chip dec">= ' in page
    # URI and IRI forms, scripts
    assert "https://xn--l-7sba6dbr.com/login" in page
    assert "<th>Script</th>" in page and "<td>Hebrew</td>" in page and "<td>Cyrillic</td>" in page
    # totals
    assert '<h2 id="rules">' in page and '<h2 id="files">' in page and '<h2 id="lookalikes">' in page


def test_html_visual_order_is_python_bidi_order(tree):
    page = render_html(collect(["docs"]))
    iri = "http://example.com/\u05e9\u05dc\u05d5\u05ddabc/x.html"
    shown = re.sub(r"<[^>]+>", "", "".join(re.findall(
        r'<div class="mono box visual" dir="ltr"><bdo dir="ltr" class="override">(.*?)</bdo></div>', page)))
    assert visual_order(iri) in shown
    assert visual_order(iri) != iri
    # shown with the browser's reordering turned off
    assert "bdo.override{direction:ltr;unicode-bidi:bidi-override}" in page
    assert "unicode-bidi:isolate" in page


# ---------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------

def test_markdown(tree):
    md = render_markdown(collect(["docs"]))
    assert md.startswith("## irilint review report")
    assert "| Code | Rule | Severity | Count |" in md
    assert "| `IRI102` | `bidi-control-encoded` | error | 2 |" in md
    assert "<details>" in md and "</details>" in md and "<summary>" in md
    assert "`U+202E RIGHT-TO-LEFT OVERRIDE`" in md
    assert "`U+0430 CYRILLIC SMALL LETTER A · Cyrillic`" in md
    assert "<U+202E>" in md
    # never a raw invisible character, never live markup from the documents
    assert not [c for c in md if c not in "\n" and is_invisible(c)]
    # markup from the documents is inert: in code spans, or escaped
    outside = re.sub(r"(`+)(?:(?!\1).)+?\1", "", md)
    assert "<script" not in outside and "<img" not in outside
    assert "`docs/<img src=x onerror=alert(1)>.txt`" in md
    assert "<code>docs/&lt;img src=x onerror=alert(1)&gt;.txt</code>" in md  # in <summary>
    assert len(md) <= MARKDOWN_LIMIT


def test_markdown_escaping():
    assert md_text("a <b> *c* http://x.org www.y.org [z](u)") == (
        "a &lt;b&gt; \\*c\\* http&#58;//x.org www&#46;y.org \\[z\\](u)")
    assert md_text("x" + RLO + "y") == "x&lt;U+202E&gt;y"
    assert md_code("a`b") == "``a`b``"
    assert md_code("a|b", cell=True) == "`a\\|b`"
    assert md_code(RLO) == "`<U+202E>`"


def test_markdown_is_cut_to_fit_a_comment(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    d = tmp_path / "many"
    d.mkdir()
    for k in range(40):
        (d / ("f%02d.txt" % k)).write_text(
            "".join("http://e.org/%%E2%%80%%AE/%d/%d\n" % (k, i) for i in range(60)), encoding="utf-8")
    data = collect(["many"], select=["IRI102"])
    assert data.total == 2400
    md = render_markdown(data)
    assert len(md) <= MARKDOWN_LIMIT
    assert "this report was cut to fit a comment" in md
    assert md.count("<details>") == md.count("</details>")
    # the summary tables are always whole
    assert "| `IRI102` | `bidi-control-encoded` | error | 2400 |" in md


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def test_a_report_over_a_file_keeps_its_mode_and_writes_through_a_link(tree, tmp_path):
    # as `check --output-file` does: the file is replaced whole, keeping its
    # permissions, and a symbolic link stays a link to the new report
    out = tmp_path / "report.html"
    out.write_text("old report", encoding="utf-8")
    out.chmod(0o640)
    assert report.main(["docs", "--output", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert out.stat().st_mode & 0o777 == 0o640
    real = tmp_path / "kept" / "report.md"
    real.parent.mkdir()
    real.write_text("old report", encoding="utf-8")
    link = tmp_path / "report-link.md"
    link.symlink_to(real)
    assert report.main(["docs", "-o", str(link)]) == 0
    assert link.is_symlink()
    assert "IRI102" in real.read_text(encoding="utf-8")
    assert sorted(p.name for p in real.parent.iterdir()) == ["report.md"]  # no temporary left


def test_main_writes_html_and_markdown(tree, tmp_path, capsys):
    out = tmp_path / "out" / "report.html"
    out.parent.mkdir()
    assert report.main(["docs", "--output", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert oct(out.stat().st_mode & 0o777) != oct(0o600)
    md_out = tmp_path / "out" / "report.md"
    assert report.main(["docs", "-o", str(md_out)]) == 0  # markdown from the extension
    assert md_out.read_text(encoding="utf-8").startswith("## irilint review report")
    capsys.readouterr()
    assert report.main(["docs", "--format", "markdown", "--select", "IRI102"]) == 0
    md = capsys.readouterr().out
    assert "IRI102" in md and "IRI101" not in md
    assert report.main(["docs", "--format", "html", "--output", "-"]) == 0
    assert capsys.readouterr().out.startswith("<!DOCTYPE html>")


def test_main_errors(tree, capsys):
    assert report.main(["docs", "--select", "no-such-rule"]) == 2
    assert report.main(["-"]) == 2
    assert report.main(["docs", "--format", "pdf"]) == 2
    assert report.main(["docs", "-o", "/nonexistent-dir/x.html"]) == 2


def test_subcommand_registers_report():
    import argparse

    parser = argparse.ArgumentParser(prog="irilint")
    sub = parser.add_subparsers(dest="command")
    report.add_subcommand(sub)
    args = parser.parse_args(["report", "docs", "--format", "markdown", "-o", "r.md", "--ignore", "IRI1"])
    assert args.command == "report" and args.paths == ["docs"] and args.format == "markdown"
    assert args.output == "r.md" and args.ignore == ["IRI1"]


# ---------------------------------------------------------------------------
# Headless Chromium
# ---------------------------------------------------------------------------

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    # belt and braces: nothing may resolve, so nothing can load
    "--host-resolver-rules=MAP * ~NOTFOUND",
]


def _chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    pytest.fail("headless Chromium is needed for this test: install the Debian package 'chromium' "
                "(apt-get install -y chromium)")


def _run_chromium(args, tmp):
    profile = tempfile.mkdtemp(prefix="profile-", dir=tmp)
    cmd = [_chromium()] + CHROMIUM_FLAGS + ["--user-data-dir=" + profile] + args
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=180,
                          env=dict(os.environ, HOME=str(tmp)))


def _png_info(data: bytes):
    """Check a PNG's chunks (CRCs, IHDR, IDAT, IEND); returns (width,
    height, decompressed image data)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos = 8
    chunks = []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, "bad CRC in %r" % kind
        chunks.append((kind, body))
        pos += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height = struct.unpack(">II", chunks[0][1][:8])
    raw = zlib.decompress(b"".join(b for k, b in chunks if k == b"IDAT"))
    return width, height, raw


@pytest.mark.external
def test_report_in_headless_chromium(tree, tmp_path):
    out = tmp_path / "report.html"
    assert report.main(["docs", "-o", str(out)]) == 0
    url = out.resolve().as_uri()

    shot = tmp_path / "report.png"  # pytest's temporary folder: never in the repository
    r = _run_chromium(["--screenshot=" + str(shot), "--window-size=1280,2000", url], tmp_path)
    assert r.returncode == 0, r.stderr.decode("utf-8", "replace")[-2000:]
    assert shot.exists() and shot.stat().st_size > 10000
    width, height, raw = _png_info(shot.read_bytes())
    assert (width, height) == (1280, 2000)
    assert len(set(raw)) > 16, "the screenshot is blank"

    r = _run_chromium(["--enable-logging=stderr", "--v=0", "--dump-dom", url], tmp_path)
    assert r.returncode == 0, r.stderr.decode("utf-8", "replace")[-2000:]
    dom = r.stdout.decode("utf-8")
    log = r.stderr.decode("utf-8", "replace")
    # the page parsed: the chips are elements of the DOM
    assert '<span class="chip inv">U+202E RIGHT-TO-LEFT OVERRIDE</span>' in dom
    assert '<span class="chip conf">U+0430 CYRILLIC SMALL LETTER A · Cyrillic</span>' in dom
    assert '<div class="mono box visual" dir="ltr"><bdo dir="ltr" class="override">' in dom
    # the hostile text stayed text
    assert "<img" not in dom and "<script" not in dom
    assert "&lt;img src=x onerror=alert(1)&gt;" in dom
    # no console message: no script ran, nothing was blocked or failed to load
    console = [line for line in log.splitlines() if ":CONSOLE" in line]
    assert not console, console


def test_html_detail_is_capped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    d = tmp_path / "many"
    d.mkdir()
    for k in range(3):
        (d / ("f%d.txt" % k)).write_text(
            "".join("http://e.org/%%E2%%80%%AE/%d/%d\n" % (k, i) for i in range(20)), encoding="utf-8")
    page = render_html(collect(["many"]), max_cards=25)
    _assert_inert(page)
    assert page.count('<article class="card') == 25
    assert "… 15 more findings in this file not shown" in page
    assert "… 20 more findings in this file not shown" in page
    assert '<td class="num">60</td>' in page  # the totals count everything


def test_unreadable_paths_are_listed_and_exit_2(tree, tmp_path):
    out = tmp_path / "r.html"
    assert report.main(["docs", "no-such-dir", "-o", str(out)]) == 2
    page = out.read_text(encoding="utf-8")
    assert "no-such-dir" in page and "error: " in page
    assert "IRI102" in page  # the rest of the report is there


def test_workers_and_cache_give_the_same_report(tree):
    one = collect(["docs"], jobs=1, no_cache=True)
    two = collect(["docs"], jobs=2)
    cached = collect(["docs"], jobs=2)  # from the cache written by the run before
    for data in (two, cached):
        assert [(t.code, t.count) for t in data.rules] == [(t.code, t.count) for t in one.rules]
        assert [(f.path, f.total) for f in data.files] == [(f.path, f.total) for f in one.files]
        assert render_html(data) == render_html(one)


def test_irilint_report_command(tree, capsys):
    from irilint.cli import main as cli_main

    assert cli_main(["report", "docs", "--format", "markdown", "--no-cache"]) == 0
    assert capsys.readouterr().out.startswith("## irilint review report")


# ---------------------------------------------------------------------------
# Each file is read once
# ---------------------------------------------------------------------------

def _count_opens(monkeypatch, root: Path, log: Path):
    """Count the opens of each file under ``root`` (os.open and open), in
    this process and in the worker processes it forks: each open appends a
    line to ``log``.  Returns a function that reads the counts."""
    import builtins
    import collections

    real_os_open, real_open = os.open, builtins.open
    prefix = os.path.join(os.path.realpath(str(root)), "")
    log_fd = real_os_open(str(log), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)

    def note(path):
        try:
            p = os.path.realpath(os.fspath(path))
        except TypeError:
            return
        if p.startswith(prefix) and os.path.isfile(p):
            os.write(log_fd, (os.path.relpath(p, prefix) + "\n").encode("utf-8"))

    def os_open(path, *a, **kw):
        note(path)
        return real_os_open(path, *a, **kw)

    def py_open(file, *a, **kw):
        if not isinstance(file, int):
            note(file)
        return real_open(file, *a, **kw)

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(builtins, "open", py_open)

    def counts():
        monkeypatch.undo()
        os.close(log_fd)
        return collections.Counter(log.read_text(encoding="utf-8").splitlines())

    return counts


@pytest.mark.parametrize("jobs", [1, 2])
def test_report_reads_each_file_once(tree, tmp_path, monkeypatch, jobs):
    # b.txt's host collides with a.md's across files: the collision is
    # checked again, from the text already read
    counts = _count_opens(monkeypatch, tree, tmp_path / "opens.log")
    data = collect(["docs"], jobs=jobs)
    files = sorted(os.path.relpath(str(p), str(tree)) for p in tree.iterdir())
    assert dict(counts()) == {f: 1 for f in files}
    assert any(r.rule.name == "confusable-collision" for f in data.files for c in f.cards for r in c.findings)


def test_report_command_reads_each_file_once(tree, tmp_path, monkeypatch, capsys):
    counts = _count_opens(monkeypatch, tree, tmp_path / "opens.log")
    assert report.main(["docs", "--format", "markdown"]) == 0
    found = counts()
    assert set(found.values()) == {1} and len(found) == 4


# ---------------------------------------------------------------------------
# A hostile IRI in every field the report shows
# ---------------------------------------------------------------------------

LRI, PDI = "\u2066", "\u2069"
EVIL = "<script>alert(1)</script>\"'</style>{{ 7*7 }}{% raw %}" + RLO + LRI + "x" + PDI
EVIL_PIECES = ("<script>alert(1)</script>", "\"'</style>{{ 7*7 }}{% raw %}")


def _hostile_data() -> ReportData:
    from irilint.findings import Finding, Severity
    from irilint.output import Reported
    from irilint.report import LookalikeGroup, RuleTotal
    from irilint.rules.registry import get_rule

    iri = "http://ex\u0430mple.com/%E2%80%AE/" + EVIL
    path = "docs/" + EVIL + ".md"
    line = "see " + iri + " " + EVIL
    span = (4, 4 + len(iri))
    card = Card(path=path, iri=iri, line=3, column=5, line_text=line, iri_span=span, marks=[(20, 30)],
                findings=[], literal=True)
    rule = get_rule("bidi-control")
    f = Finding(rule=rule, severity=Severity.ERROR, message="bad " + EVIL, start=20, end=30, ref_start=4,
                ref_end=span[1], iri=iri, path=path)
    card.findings.append(Reported(path, f, 3, 17, 3, 27, line))
    occ = [Occurrence(path, 3, 5, iri), Occurrence("other/" + EVIL, 1, 1, "http://example.com/" + EVIL)]
    files = [FileReport(path, [card], {"error": 1}),
             FileReport("bad/" + EVIL, error="bad/" + EVIL + ": cannot decode " + EVIL),
             FileReport("skip/" + EVIL, skipped="skip/" + EVIL + ": " + EVIL)]
    rules = [RuleTotal("IRI101" + EVIL, "bidi-control" + EVIL, "error", 1, "Summary ``" + EVIL + "`` " + EVIL)]
    groups = [LookalikeGroup("iri", "k", [(o.iri, [o]) for o in occ]),
              LookalikeGroup("host", "k", [("ex\u0430mple.com", occ[:1]), ("example.com" + EVIL, occ[1:])])]
    return ReportData(files, 3, 2, rules, groups, EVIL)


#: every element, attribute and class the report's template makes
REPORT_TAGS = {"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "h4", "p", "nav",
               "a", "main", "table", "thead", "tbody", "tr", "th", "td", "code", "span", "section", "article",
               "ul", "li", "dl", "dt", "dd", "div", "bdo", "br", "footer"}
REPORT_ATTRS = {"lang", "dir", "charset", "http-equiv", "content", "name", "href", "id", "class", "title", "colspan"}
REPORT_CLASSES = {"top", "totals", "num", "code", "mono", "muted", "group", "where", "box", "override", "file",
                  "card", "error", "warning", "info", "hint", "findings", "rule", "pos", "msg", "rows", "src",
                  "visual", "iri", "hit", "caret", "chip", "inv", "conf", "dec", "na", "esc", "cut", "chars",
                  "c", "flag", "glyph", "sev", "sev-error", "sev-warning", "sev-info", "sev-hint", "cutnote"}
#: a chip's title: a character's label from the Unicode data ("<unassigned>"
#: where Python's data names none), never text of the document
CHIP_TITLE = re.compile(r"U\+[0-9A-F]{4,6} (<[a-z-]+>|[A-Z0-9 \-]+)( · [A-Za-z_, …]+)?\Z")


def _assert_only_template_markup(page: str) -> _Tags:
    p = _assert_inert(page)
    for tag, attrs in p.tags:
        assert tag in REPORT_TAGS, tag
        for k, v in attrs.items():
            assert k in REPORT_ATTRS, (tag, k)
            if k == "class":
                assert set(v.split()) <= REPORT_CLASSES, (tag, v)
            elif k == "title":
                assert v == "here" or CHIP_TITLE.match(v), (tag, v)
            elif k == "href":
                assert re.fullmatch(r"#(rules|files|lookalikes|findings|file-\d+)", v), (tag, v)
            elif k == "id":
                assert re.fullmatch(r"rules|files|lookalikes|findings|file-\d+", v), (tag, v)
            elif k in ("dir", "lang", "charset", "colspan"):
                assert v in ("ltr", "en", "utf-8", "5"), (tag, k, v)
    assert [t for t, _ in p.tags].count("style") == 1
    return p


def test_hostile_text_in_every_field_stays_text():
    page = render_html(_hostile_data())
    p = _assert_only_template_markup(page)
    text = "".join(p.text)
    for piece in EVIL_PIECES:
        # in the path, the IRI, the line, the message, the rule, the
        # look-alikes, the errors and the version
        assert text.count(piece) >= 10, (piece, text.count(piece))
    assert "49" not in text  # the template never evaluates what it shows
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in text and "U+2066 LEFT-TO-RIGHT ISOLATE" in text


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.characters(blacklist_categories=("Cs",)),
                          st.sampled_from(["<", ">", "&", '"', "'", "{{", "}}", "{%", "</style>", "<script>",
                                           RLO, LRI, PDI, "\u200b", "%E2%80%AE", "xn--80ak6aa92e", "\u0430"])),
                max_size=30).map("".join))
def test_any_iri_renders_as_template_markup_only(evil):
    from irilint.findings import Finding, Severity
    from irilint.output import Reported
    from irilint.rules.registry import get_rule

    iri = "http://e.org/" + evil
    card = Card(path=evil, iri=iri, line=1, column=1, line_text=iri, iri_span=(0, len(iri)),
                marks=[(0, min(len(iri), 20))], findings=[], literal=True)
    f = Finding(rule=get_rule("bidi-control"), severity=Severity.ERROR, message=evil, start=0, end=4,
                ref_start=0, ref_end=len(iri), iri=iri, path=evil)
    card.findings.append(Reported(evil, f, 1, 1, 1, 5, iri))
    data = ReportData([FileReport(evil, [card], {"error": 1})], 1, 1, [], [
        LookalikeGroup("iri", "k", [(iri, [Occurrence(evil, 1, 1, iri)]), ("x" + iri, [Occurrence(evil, 2, 1, iri)])])
    ], evil)
    _assert_only_template_markup(render_html(data))


@pytest.mark.external
def test_hostile_report_in_headless_chromium(tmp_path):
    out = tmp_path / "hostile.html"
    out.write_text(render_html(_hostile_data()), encoding="utf-8")
    r = _run_chromium(["--enable-logging=stderr", "--v=0", "--dump-dom", out.resolve().as_uri()], tmp_path)
    assert r.returncode == 0, r.stderr.decode("utf-8", "replace")[-2000:]
    dom = r.stdout.decode("utf-8")
    log = r.stderr.decode("utf-8", "replace")
    # the browser built only the template's elements: one style sheet, no
    # script, and the hostile text is text in the DOM
    p = _assert_only_template_markup(dom)
    text = "".join(p.text)
    for piece in EVIL_PIECES:
        assert text.count(piece) >= 10, piece
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom and "&lt;/style&gt;" in dom
    assert '<span class="chip inv">U+202E RIGHT-TO-LEFT OVERRIDE</span>' in dom
    console = [line for line in log.splitlines() if ":CONSOLE" in line]
    assert not console, console


# ---------------------------------------------------------------------------
# Structure: the page shows every part of the data
# ---------------------------------------------------------------------------

class _Node:
    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def find_all(self, tag, cls=None):
        out = []
        for c in self.children:
            if isinstance(c, _Node):
                if c.tag == tag and (cls is None or cls in c.attrs.get("class", "").split()):
                    out.append(c)
                out.extend(c.find_all(tag, cls))
        return out


class _TreeBuilder(HTMLParser):
    VOID = {"meta", "br"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.cur = _Node("#root", {})

    def handle_starttag(self, tag, attrs):
        node = _Node(tag, attrs, self.cur)
        self.cur.children.append(node)
        if tag not in self.VOID:
            self.cur = node

    def handle_endtag(self, tag):
        node = self.cur
        while node is not None and node.tag != tag:
            node = node.parent
        assert node is not None, "unbalanced </%s>" % tag
        self.cur = node.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def _tree_of(page: str) -> _Node:
    b = _TreeBuilder()
    b.feed(page)
    b.close()
    assert b.cur is b.root, "unclosed elements"
    return b.root


def test_html_shows_every_part_of_the_data(tree):
    _assert_shows_everything(collect(["docs"]))


def test_html_shows_every_part_of_the_samples():
    samples = Path(__file__).parent / "samples"
    _assert_shows_everything(collect([str(samples)]))


def _assert_shows_everything(data: ReportData) -> None:
    from irilint.anatomy import visible_text
    from irilint.convert import to_iri, to_uri

    assert data.total
    root = _tree_of(render_html(data))
    totals = root.find_all("table", "totals")
    assert len(totals[0].find_all("tr")) == len(data.rules) + 1
    for row, t in zip(totals[0].find_all("tr")[1:], data.rules):
        cells = [td.text() for td in row.find_all("td")]
        assert cells[:4] == [t.code, t.name, t.severity, str(t.count)]
    assert len(totals[1].find_all("tr")) == len(data.files) + 1
    groups = root.find_all("div", "group")
    assert len(groups) == len(data.lookalikes)
    for g, group in zip(groups, data.lookalikes):
        assert len(g.find_all("li")) == len(group.variants)
    sections = root.find_all("section", "file")
    assert len(sections) == len([f for f in data.files if f.total])
    for section, f in zip(sections, [f for f in data.files if f.total]):
        assert section.find_all("h3")[0].text().startswith(visible_text(f.path))
        cards = section.find_all("article", "card")
        assert len(cards) == len(f.cards)
        for node, card in zip(cards, f.cards):
            items = node.find_all("ul", "findings")[0].find_all("li")
            assert len(items) == len(card.findings)
            for li, r in zip(items, card.findings):
                assert "%s %s %d:%d" % (r.rule.code, r.rule.name, r.line, r.column) in li.text()
            labels = [dt.text() for dt in node.find_all("dt")]
            assert labels[0].startswith("Line %d" % card.line)
            if not card.iri:
                assert len(labels) == 1
                continue
            expected = ["URI form", "IRI form"]
            iri = to_iri(card.iri)
            expected += ["Visual order"] * len({s for s in (card.iri, iri) if report.is_bidi(s)})
            chars = characters(card.iri)
            expected += ["Characters"] if chars else []
            assert [label[:12] for label in labels[1:]] == [e[:12] for e in expected]
            if chars:
                assert len(node.find_all("table", "chars")[0].find_all("tr")) == min(len(chars), 64) + 1
            uri = to_uri(card.iri)
            if len(uri) <= 300:  # the URI form is ASCII: shown as it is
                assert node.find_all("div", "box")[1].text() == uri


def test_hostile_text_in_every_field_is_inert_in_markdown():
    md = render_markdown(_hostile_data())
    assert not [c for c in md if c != "\n" and is_invisible(c)]
    outside = re.sub(r"(`+)(?:(?!\1).)+?\1", "", md)
    for bad in ("<script", "</style", "<img"):
        assert bad not in outside, bad
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in md  # the message, as text
    assert "<U+202E>" in md


# ---------------------------------------------------------------------------
# Packaging and imports
# ---------------------------------------------------------------------------

def test_report_arguments_do_not_import_the_check_command():
    import subprocess
    import sys

    code = ("import sys, irilint.report_args; "
            "print(sorted(m for m in sys.modules if m.startswith('irilint.')))")
    out = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, check=True, text=True).stdout
    assert "irilint.cli_commands" not in out and "irilint.report'" not in out


def test_templates_are_package_data():
    import fnmatch

    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib
    root = Path(__file__).resolve().parent.parent
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["irilint.report"]
    assert "irilint.report" in config["tool"]["setuptools"]["packages"]
    templates = root / "server" / "report" / "templates"
    names = sorted(p.name for p in templates.iterdir())
    assert "report.html.j2" in names and "report.css" in names
    for name in names:
        assert any(fnmatch.fnmatch("templates/" + name, g) for g in globs), name
    assert any(d.startswith("jinja2") for d in config["project"]["dependencies"])
