"""The opt-in list of well-known domains (``well-known-domains = true``, issue 16).

The list is Chromium's list of top domains (tools/data/chromium_domains.list),
generated into ``irilint.well_known_domains`` by
tools/gen_well_known_domains.py; ``confusable-collision`` compares hosts
with it as with ``protected-domains``.  Spoofs of real top domains are
reported with the key on and not with it off; the listed domains, the
hosts under them and real internationalized names are not.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irilint import well_known_domains as WKD
from irilint.config import ConfigError, Settings, load_config_file, settings_to_dict
from irilint.engine import Engine

from test_legit_idns import LEGIT_IRIS, LEGIT_ROWS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "tools", "gen_well_known_domains.py")
DATA = os.path.join(ROOT, "tools", "data", "chromium_domains.list")


def _load_tool():
    spec = importlib.util.spec_from_file_location("gen_well_known_domains", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _load_tool()
_ENGINE = Engine()
ON = Settings(well_known_domains=True)
OFF = Settings()
FROM_THE_LIST = "from the list of well-known domains"


def collisions(iri, settings_):
    """The confusable-collision messages of ``iri`` as the only link of a
    Markdown document."""
    result = _ENGINE.check_text(iri + "\n", path="links.md", settings=settings_, run_state={})
    assert result.errors == []
    return [f.message for f in result.findings if f.rule.name == "confusable-collision"]


# -- the generated module ------------------------------------------------------------

def test_the_committed_module_is_what_the_generator_writes_now():
    # The skeletons are computed by the rule's code: a change of that code
    # (or of the UTS #39 data) must be followed by a regeneration.
    with open(GEN.DEFAULT_OUTPUT, encoding="utf-8", newline="") as fh:
        assert fh.read() == GEN.generate(), "stale: run python tools/gen_well_known_domains.py"
    assert GEN.main(["--check"]) == 0


def test_check_mode_fails_on_a_stale_module_and_shows_the_difference(tmp_path, capsys):
    stale = tmp_path / "well_known_domains.py"
    stale.write_text(GEN.generate().replace("'apple.com'", "'apple.org'"), encoding="utf-8")
    assert GEN.main(["--check", "-o", str(stale)]) == 1
    out, err = capsys.readouterr()
    assert "-    'apple.org'," in out and "+    'apple.com'," in out
    assert "is out of date: run python tools/gen_well_known_domains.py" in err


def test_the_module_is_chromiums_list_at_the_recorded_revision():
    with open(DATA, encoding="utf-8") as fh:
        header = [line for line in fh.read().split("\n") if line.startswith("#")]
    assert "# Revision: %s" % WKD.SOURCE_REVISION in header
    assert any("BSD-style" in line for line in header)
    assert any("Copyright 2015 The Chromium Authors" in line for line in header)
    assert WKD.DOMAIN_COUNT == len(WKD.DOMAINS) == len(set(WKD.DOMAINS)) == 4989
    assert WKD.TOP_BUCKET_COUNT == 489
    assert WKD.DOMAINS[:3] == ("17track.net", "24h.com.vn", "academia.edu")
    top = WKD.DOMAINS[:WKD.TOP_BUCKET_COUNT]
    assert {"apple.com", "google.com", "paypal.com", "wikipedia.org"} <= set(top)
    assert WKD.DOMAINS[WKD.TOP_BUCKET_COUNT] == "01net.com"   # first after the marker
    owners = {d for ds in WKD.SKELETONS.values() for d in ds}
    assert owners == set(WKD.DOMAINS)


def test_the_generator_keeps_valid_registrable_names_and_says_what_it_dropped(tmp_path):
    src = tmp_path / "domains.list"
    src.write_text(
        "# Source: chromium/chromium, %s\n# Revision: %s\n" % (GEN.SOURCE_PATH, "a" * 40)
        + "apple.com\n\n# a comment\nlocalhost\n-bad.com\nUPPER.com\n1.2.3.4\na..b\n"
        + "b\u00fccher.de\nxn--zz-\u00e9.com\n" + "x" * 64 + ".com\n"
        + "###END_TOP_BUCKET###\napple.com\ngoogle.com\n",
        encoding="utf-8")
    text = GEN.generate(str(src))
    namespace = {}
    exec(compile(text, "generated", "exec"), namespace)
    assert namespace["DOMAINS"] == ("apple.com", "b\u00fccher.de", "google.com")
    assert namespace["TOP_BUCKET_COUNT"] == 2
    assert namespace["SOURCE_REVISION"] == "a" * 40
    doc = namespace["__doc__"]
    assert ("Lines dropped: 1 blank, 1 comment, 7 not a valid, registrable host name, "
            "1 repeated, 1 the top-bucket marker.") in " ".join(doc.split())
    assert "Dropped line 6, 'localhost': a single label, not a registrable domain." in doc
    assert "Dropped line 9, '1.2.3.4': a numeric top-level label" in doc
    assert "Dropped line 8, 'UPPER.com': not in lower case." in doc
    # the Unicode name is kept and known by its skeletons too
    assert any("b\u00fccher.de" in owners for owners in namespace["SKELETONS"].values())


@pytest.mark.parametrize("content, expected", [
    (None, "cannot read"),
    ("apple.com\n###END_TOP_BUCKET###\n", "must name the source"),
    ("# Source: chromium/chromium, %s\n# Revision: %s\napple.com\n" % (
        "components/url_formatter/spoof_checks/top_domains/domains.list", "b" * 40), "no ###END_TOP_BUCKET###"),
])
def test_the_generator_refuses_a_bad_input_naming_it(tmp_path, capsys, content, expected):
    src = tmp_path / "domains.list"
    if content is not None:
        src.write_text(content, encoding="utf-8")
    assert GEN.main(["--input", str(src), "-o", str(tmp_path / "out.py")]) == 2
    err = capsys.readouterr().err
    assert str(src) in err and expected in err
    assert not (tmp_path / "out.py").exists()


def _committed_input():
    with open(DATA, encoding="utf-8", newline="") as fh:
        text = fh.read()
    lines = text.split("\n")
    header = 0
    while lines[header].startswith("#"):
        header += 1
    return text, "\n".join(lines[header:])


def test_import_raw_rebuilds_the_committed_input_from_chromium_s_file(tmp_path):
    committed, raw = _committed_input()
    assert raw.startswith("17track.net\n") and raw.endswith("zybang.com\n")
    assert raw.count("\n") == 4990 and len(raw.encode("utf-8")) == 64145   # the size read_file gave
    (tmp_path / "domains.list").write_text(raw, encoding="utf-8", newline="")
    out = tmp_path / "chromium_domains.list"
    assert GEN.main(["--import-raw", str(tmp_path / "domains.list"), "--revision", WKD.SOURCE_REVISION,
                     "--input", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == committed


@pytest.mark.parametrize("raw, revision, expected", [
    ("apple.com\n###END_TOP_BUCKET###\n", "0af7d03", "not a 40-digit commit id"),
    ("apple.com\ngoogle.com\n", "c" * 40, "no ###END_TOP_BUCKET### line"),
    ("apple.com\n###END_TOP_BUCKET###\n", None, "needs --revision"),
])
def test_import_raw_refuses_what_is_not_chromium_s_list(tmp_path, capsys, raw, revision, expected):
    src = tmp_path / "domains.list"
    src.write_text(raw, encoding="utf-8")
    out = tmp_path / "chromium_domains.list"
    argv = ["--import-raw", str(src), "--input", str(out)] + (["--revision", revision] if revision else [])
    assert GEN.main(argv) == 2
    err = capsys.readouterr().err
    assert expected in err and (revision is None or str(src) in err)
    assert not out.exists()


# -- spoofs of real top domains -------------------------------------------------------

SPOOFS = [
    ("\u0430\u0440\u0440\u04cf\u0435.com", "apple.com"),       # аррӏе: Cyrillic, whole script
    ("\u0123oogle.com", "google.com"),                          # ģ: Latin with a cedilla
    ("payp\u0061\u013e.com", "paypal.com"),                     # ľ: Latin with a caron
    ("w\u00edkipedia.org", "wikipedia.org"),                    # í
    ("login.\u0123oogle.com", "google.com"),                    # a host under the spoof
    ("\u043c\u0442\u0455.ru", "mts.ru"),                        # мтѕ: Cyrillic letters drawn like m, t, s
    ("\u043e\u043a.ru", "ok.ru"),                               # ок: Cyrillic o, k
    ("f\u0430cebook.com", "facebook.com"),                      # Cyrillic а among Latin
    ("\u0261oogle.com", "google.com"),                          # ɡ LATIN SMALL LETTER SCRIPT G
    ("xn--80ak6aa92e.com", "apple.com"),                        # аррӏе written as its A-label
    ("paypa1.com", "paypal.com"),                               # an ASCII typosquat, as with protected-domains
]


@pytest.mark.parametrize("host, imitated", SPOOFS)
def test_a_spoof_of_a_well_known_domain_is_reported_only_with_the_key_on(host, imitated):
    on = collisions("http://%s/" % host, ON)
    assert len(on) == 1, on
    assert "is confusable with '%s' %s" % (imitated, FROM_THE_LIST) in on[0]
    assert collisions("http://%s/" % host, OFF) == []


def test_the_message_says_which_characters_differ():
    (message,) = collisions("http://payp\u0061\u013e.com/", ON)
    assert message == ("the host 'payp\u0061\u013e.com' is confusable with 'paypal.com' from the list of "
                       "well-known domains (equal skeletons); it has U+013E LATIN SMALL LETTER L WITH CARON "
                       "where the other has U+006C LATIN SMALL LETTER L")


@pytest.mark.parametrize("a_label, u_label", [("xn--paypa-z6a.com", "paypa\u013e"),
                                              ("xn--j1ah.ru", "\u043e\u043a")])
def test_the_punycode_hint_says_keep_a_label_that_imitates_a_listed_domain(a_label, u_label):
    def hints(settings_):
        result = _ENGINE.check_text("http://%s/\n" % a_label, path="links.md", settings=settings_, run_state={})
        return [f.message for f in result.findings if f.rule.code == "IRI503"]

    (off,) = hints(OFF)
    assert off.endswith("an IRI can show the name itself") and u_label in off
    (on,) = hints(ON)
    assert "keep it: confusable-collision (IRI205) flags the U-label" in on


def test_convert_to_iri_keeps_the_a_label_with_the_key_on(tmp_path, monkeypatch):
    from irilint.cli import main
    import io

    monkeypatch.chdir(tmp_path)
    (tmp_path / "irilint.toml").write_text("well-known-domains = true\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["convert", "--to", "iri", "http://xn--paypa-z6a.com/", "http://xn--80ak6aa92e.com/x"]) == 0
    assert out.getvalue().splitlines() == ["http://xn--paypa-z6a.com/", "http://xn--80ak6aa92e.com/x"]
    assert "confusable-collision (IRI205)" in err.getvalue()


def test_a_protected_domain_of_the_same_skeleton_is_named_first():
    both = Settings(well_known_domains=True, protected_domains=("paypal.com",))
    (message,) = collisions("http://payp\u0061\u013e.com/", both)
    assert "the protected domain 'paypal.com'" in message and FROM_THE_LIST not in message


@pytest.mark.parametrize("host", [
    "google.com", "www.google.com", "mail.google.com", "apple.com", "www.apple.com", "paypal.com",
    "someone.github.io", "github.io", "en.wikipedia.org", "www.gov.uk", "ok.ru", "mts.ru",
    "example.com", "docs.python.org",
])
def test_a_well_known_domain_and_the_hosts_under_it_are_clean(host):
    assert collisions("http://%s/" % host, ON) == []


_LDH = st.from_regex(r"[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(WKD.DOMAINS), st.lists(_LDH, max_size=3))
def test_every_listed_domain_and_its_subdomains_get_no_finding_from_the_list(domain, labels):
    host = ".".join(labels + [domain])
    assert [m for m in collisions("http://%s/" % host, ON) if FROM_THE_LIST in m] == []


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(WKD.DOMAINS), st.sampled_from(["\u0301", "\u0300", "\u030c", "\u0327"]),
       st.data())
def test_a_listed_domain_with_a_diacritic_on_a_letter_is_reported(domain, mark, data):
    # Chromium's policy removes the diacritics of Latin hosts before the
    # comparison: each such spelling of a listed name imitates it.
    letters = [i for i, c in enumerate(domain) if c.isalpha()]
    k = data.draw(st.sampled_from(letters))
    import unicodedata

    spoof = unicodedata.normalize("NFC", domain[:k + 1] + mark + domain[k + 1:])
    messages = collisions("http://%s/" % spoof, ON)
    assert [m for m in messages if FROM_THE_LIST in m], (spoof, messages)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.from_regex(r"[a-z0-9_-]{1,12}", fullmatch=True), min_size=1, max_size=4))
def test_an_ascii_host_s_policy_skeleton_is_its_uts39_skeleton(labels):
    # the lookup skips the policy's skeletons of ASCII suffixes on this ground
    from irilint.idn_display import policy_skeletons
    from irilint.rules.lookalike.collisions import _host_skeletons

    host = ".".join(labels)
    assert policy_skeletons(host) == frozenset([_host_skeletons(host)[0][1]])


# -- real internationalized names stay clean ------------------------------------------

@pytest.mark.parametrize("iri", [iri for iris in LEGIT_IRIS.values() for iri in iris])
def test_legit_iris_get_no_collision_with_the_key_on(iri):
    assert collisions(iri, ON) == []


@pytest.mark.parametrize("host", [r["host"] for r in LEGIT_ROWS])
def test_the_legit_list_gets_no_collision_with_the_key_on(host):
    assert collisions("http://%s/" % host, ON) == []


# -- the key ---------------------------------------------------------------------------

def test_the_key_is_off_by_default_and_read_from_the_config(tmp_path):
    assert Settings().well_known_domains is False
    path = tmp_path / "irilint.toml"
    path.write_text("well-known-domains = true\n", encoding="utf-8")
    s = load_config_file(path)
    assert s.well_known_domains is True
    assert settings_to_dict(s)["well-known-domains"] is True
    assert s.fingerprint() != Settings(source=str(path)).fingerprint()
    assert Settings().merged({"well-known-domains": True}).well_known_domains is True


@pytest.mark.parametrize("value, got", [('"yes"', "str"), ("1", "int"), ('["apple.com"]', "list")])
def test_a_wrong_type_names_the_file_and_the_key(tmp_path, value, got):
    path = tmp_path / "pyproject.toml"
    path.write_text("[tool.irilint]\nwell-known-domains = %s\n" % value, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config_file(path)
    assert str(info.value) == ("%s: [tool.irilint] key 'well-known-domains': expected true or false, got %s"
                               % (path, got))


def test_the_editor_settings_take_the_key():
    from irilint.lsp.settings import KNOWN_KEYS

    assert "well-known-domains" in KNOWN_KEYS
    with open(os.path.join(ROOT, "editors", "vscode", "package.json"), encoding="utf-8") as fh:
        properties = json.load(fh)["contributes"]["configuration"]["properties"]
    assert "boolean" in properties["irilint.wellKnownDomains"]["type"]
    with open(os.path.join(ROOT, "editors", "vscode", "src", "helpers.ts"), encoding="utf-8") as fh:
        assert "wellKnownDomains: 'well-known-domains'," in fh.read()


def _imports_the_table(tmp_path, config):
    doc = tmp_path / "links.md"
    doc.write_text("http://www.google.com/ http://\u0430\u0440\u0440\u04cf\u0435.com/\n", encoding="utf-8")
    (tmp_path / "irilint.toml").write_text(config, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "irilint", "check", "--no-cache",
                           "--format", "json", str(doc)], capture_output=True, text=True, timeout=120,
                          cwd=str(tmp_path))
    imported = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line]
    assert "irilint.engine" in imported
    messages = [f["message"] for f in json.loads(proc.stdout) if f.get("kind") == "finding"]
    return "irilint.well_known_domains" in imported, messages


def test_the_table_is_imported_only_when_the_key_is_on(tmp_path):
    imported, messages = _imports_the_table(tmp_path, "")
    assert not imported and not [m for m in messages if FROM_THE_LIST in m]
    imported, messages = _imports_the_table(tmp_path, "well-known-domains = true\n")
    assert imported and [m for m in messages if "'apple.com' " + FROM_THE_LIST in m]


def test_the_cli_reports_from_the_list_with_and_without_a_cache(tmp_path, monkeypatch):
    from irilint.cli import main

    monkeypatch.delenv("IRILINT_NO_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "irilint.toml").write_text("well-known-domains = true\n", encoding="utf-8")
    (tmp_path / "a.md").write_text("[x](http://payp\u0061\u013e.com/login)\n", encoding="utf-8")
    outputs = []
    for _ in range(2):   # cold, then from the cache
        import io

        out = io.StringIO()
        monkeypatch.setattr(sys, "stdout", out)
        code = main(["check", "--format", "json", "a.md"])
        monkeypatch.setattr(sys, "stdout", sys.__stdout__)
        assert code == 1
        outputs.append(json.loads(out.getvalue()))
    assert outputs[0] == outputs[1]
    (finding,) = [f for f in outputs[0] if f["kind"] == "finding" and f["code"] == "IRI205"]
    assert "'paypal.com' " + FROM_THE_LIST in finding["message"]
    assert (finding["line"], finding["column"]) == (1, 12)
