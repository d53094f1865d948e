"""irilint against the IDN display verdicts of Firefox (its test_idn_urls.js,
recorded in bench/data/firefox_idn_cases.tsv) and of WebKit (the hosts its
URLExtras_Spoof test keeps in Punycode, bench/data/webkit_idn_spoofs.tsv),
each with its revision.

A host counts as flagged when a finding of the look-alike or host family
other than the IRI503 hint is on ``http://HOST/``, the way bench/idn_spoof.py
counts for Chromium's verdicts.  The verdict compared is Firefox's "high"
restriction profile (UTS #39 Highly Restrictive, what Chromium applies too).
Where Firefox and Chromium's written policy disagree, Chromium's stricter
rule stands, and the case is named below with the rule that decides it.
"""
from __future__ import annotations

import csv
import os

import pytest

from irilint.config import Settings
from irilint.engine import Engine
from irilint.scanners import scanner_for

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "bench", "data", "firefox_idn_cases.tsv")
WEBKIT_SPOOFS = os.path.join(ROOT, "bench", "data", "webkit_idn_spoofs.tsv")

#: host -> why irilint keeps it in Punycode although Firefox shows it
CHROMIUM_STRICTER = {
    # Chromium's dangerous patterns: U+3108 BOPOMOFO LETTER F (and the other
    # Bopomofo and Han letters drawn like Latin ones) beside a character that
    # is not Han, kana or Bopomofo.  Firefox has no such pattern.
    "ㄅㄆㄇㄈbopomofo注音符号.com": "IRI210",
    "注音符号ㄅㄆㄇㄈbopomofo.com": "IRI210",
}


def _rows(path=CASES):
    with open(path, encoding="utf-8", newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


ROWS = _rows()
ENGINE = Engine()
SETTINGS = Settings()
SCANNER = scanner_for(path="links.md")


def _flags(host: str):
    result = ENGINE.check_text("http://%s/\n" % host, path="links.md", settings=SETTINGS, scanner=SCANNER,
                               run_state={})
    assert not result.errors, result.errors
    return sorted({f.rule.code for f in result.findings
                   if f.rule.family in ("lookalike", "host") and f.rule.code != "IRI503"})


def test_the_recorded_cases_are_whole():
    assert len(ROWS) == 86
    assert {r["verdict"] for r in ROWS} == {"legit", "spoof"}
    assert all(r["verdict"] == ("legit" if r["firefox_high"] == "unicode" else "spoof") for r in ROWS)


@pytest.mark.parametrize("row", ROWS, ids=[r["ascii"] for r in ROWS])
def test_irilint_agrees_with_firefox_high_profile(row):
    host = row["host"]
    codes = _flags(host)
    if host in CHROMIUM_STRICTER:
        assert row["verdict"] == "legit" and CHROMIUM_STRICTER[host] in codes, (host, codes)
        return
    if row["verdict"] == "spoof":
        assert codes, "%s (%s): Firefox keeps it in Punycode, irilint says nothing" % (host, row["group"])
    else:
        assert not codes, "%s (%s): Firefox shows it, irilint flags %s" % (host, row["group"], codes)


@pytest.mark.parametrize("row", [r for r in ROWS if r["ascii"] != r["host"].lower()
                                 and "xn--" in r["ascii"] and r["host"] not in CHROMIUM_STRICTER],
                         ids=lambda r: r["ascii"])
def test_the_punycode_form_gets_the_same_verdict(row):
    # Firefox tests both forms of each host; an A-label is judged as the
    # U-label it stands for.
    assert bool(_flags(row["ascii"])) == (row["verdict"] == "spoof"), (row["ascii"], _flags(row["ascii"]))


WEBKIT_ROWS = _rows(WEBKIT_SPOOFS)


def test_the_webkit_spoofs_are_whole():
    assert len(WEBKIT_ROWS) == 73
    for row in WEBKIT_ROWS:
        # the recorded code points are what the A-labels decode to
        labels = [label[4:].encode("ascii").decode("punycode") for label in row["ascii"].split(".")
                  if label.startswith("xn--")]
        shown = " | ".join(" ".join(c if c.isascii() else "U+%04X" % ord(c) for c in u) for u in labels)
        assert shown == row["code_points"], row


@pytest.mark.parametrize("row", WEBKIT_ROWS, ids=[r["ascii"] for r in WEBKIT_ROWS])
def test_every_host_webkit_keeps_in_punycode_is_flagged(row):
    # Written as WebKit's test writes it, in Punycode: a reader of the
    # document sees the A-label, and irilint must say what it hides.  The
    # one label WebKit refuses for its digit beside a Hebrew letter
    # (xn--2-zic, "2ס") breaks the Bidi Rule of RFC 5893 as well: IRI105, an
    # error of the bidi family, is the finding there.
    codes = _flags(row["ascii"])
    if not codes:
        result = ENGINE.check_text("http://%s/\n" % row["ascii"], path="links.md", settings=SETTINGS,
                                   scanner=SCANNER, run_state={})
        codes = [f.rule.code for f in result.findings if f.rule.code == "IRI105"]
    assert codes, "%s (%s): WebKit keeps it in Punycode, irilint says nothing" % (row["ascii"], row["code_points"])
