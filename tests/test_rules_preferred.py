"""The preferred-form family: uppercase-scheme, uppercase-host, dot-segments,
default-port; and the property that their safe fixes keep the URI."""
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irilint.engine import check_reference
from irilint.findings import Severity
from irilint.rules.registry import get_rule, select_rules

FAMILY = ["preferred-form"]


def findings(value, rule):
    return [f for f in check_reference(value, select=[rule]) if f.rule.name == rule]


def one(value, rule):
    fs = findings(value, rule)
    assert len(fs) == 1, [(f.rule.name, f.message) for f in fs]
    return fs[0]


def apply(value, edits):
    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        value = value[:e.start] + e.new_text + value[e.end:]
    return value


def fixed(value, rule):
    f = one(value, rule)
    (fix,) = f.fixes
    assert fix.safe
    return apply(value, fix.edits)


def test_defaults_and_severities():
    expected = {
        "uppercase-scheme": ("IRI601", Severity.INFO, True, "safe"),
        "uppercase-host": ("IRI602", Severity.INFO, True, "safe"),
        "dot-segments": ("IRI603", Severity.WARNING, True, "sometimes"),
        "default-port": ("IRI604", Severity.INFO, False, "safe"),
    }
    for name, (code, sev, enabled, fix) in expected.items():
        r = get_rule(name)
        assert (r.code, r.family, r.severity, r.enabled, r.fix) == (code, "preferred-form", sev, enabled, fix)
        assert r.needs is None  # they must see pure-ASCII references
        for section in ("What it does", "Why", "Example", "Fix safety", "Reference"):
            assert "## " + section in r.doc
    default = {r.name for r in select_rules().rules}
    assert {"uppercase-scheme", "uppercase-host", "dot-segments"} <= default
    assert "default-port" not in default
    # ... so the default check of a default port says nothing
    assert not [f for f in check_reference("http://h:80/") if f.rule.family == "preferred-form"]


@pytest.mark.parametrize("value", [
    "http://example.com/",
    "https://example.com:8443/a/b.c/..x/.y?q=/../#/./",
    "mailto:User@Example.COM",  # no authority: not a host
    "urn:ISBN:0-395-36341-1",
    "../img/../logo.png",
    "./a/b",
    "http://\u4f8b\u3048.\u30c6\u30b9\u30c8/\u30d1\u30b9",
    "http://\u043f\u0440\u0438\u043c\u0435\u0440.\u0438\u0441\u043f\u044b\u0442\u0430\u043d\u0438\u0435/",
    "http://\u0909\u0926\u093e\u0939\u0930\u0923.\u092a\u0930\u0940\u0915\u094d\u0937\u093e/",
    "http://[2001:db8::1]:8080/",
    "http://127.0.0.1/",
    "C:/Users/Me/../x",  # a Windows path, not a scheme; relative-looking path
])
def test_quiet(value):
    assert check_reference(value, select=FAMILY) == []


# ---------------------------------------------------------------------------
# uppercase-scheme
# ---------------------------------------------------------------------------

def test_uppercase_scheme():
    value = "HTTPS://example.org/Path"
    f = one(value, "uppercase-scheme")
    assert (f.start, f.end) == (0, 5)
    assert f.code == "IRI601" and f.severity == Severity.INFO
    assert "'HTTPS'" in f.message and "'https'" in f.message
    assert fixed(value, "uppercase-scheme") == "https://example.org/Path"
    assert fixed("Foo+Bar.X-1:opaque", "uppercase-scheme") == "foo+bar.x-1:opaque"


@pytest.mark.parametrize("value", ["http://x/", "c:/x", "C:\\x", "h2:x", "1HTTP://x"])
def test_uppercase_scheme_quiet(value):
    assert findings(value, "uppercase-scheme") == []


# ---------------------------------------------------------------------------
# uppercase-host
# ---------------------------------------------------------------------------

def test_uppercase_host():
    value = "http://user@Example.COM:8080/Path"
    f = one(value, "uppercase-host")
    assert value[f.start:f.end] == "Example.COM"
    assert f.code == "IRI602" and f.severity == Severity.INFO
    assert "'example.com'" in f.message
    assert fixed(value, "uppercase-host") == "http://user@example.com:8080/Path"


def test_uppercase_host_leaves_escapes_and_non_ascii_alone():
    value = "http://%C3%A4B\u00c4x.COM/"
    assert fixed(value, "uppercase-host") == "http://%C3%A4b\u00c4x.com/"
    # nothing but escape hex and non-ASCII: nothing to do
    assert findings("http://%C3%A4\u00c4.de/", "uppercase-host") == []


def test_uppercase_host_other_schemes_and_ipv6():
    assert fixed("foo://Server/Share", "uppercase-host") == "foo://server/Share"
    assert fixed("//WWW.x.org/", "uppercase-host") == "//www.x.org/"
    value = "http://[2001:DB8::A]:80/"
    f = one(value, "uppercase-host")
    assert value[f.start:f.end] == "[2001:DB8::A]"
    assert fixed(value, "uppercase-host") == "http://[2001:db8::a]:80/"
    assert fixed("http://XN--BCHER-KVA.de/", "uppercase-host") == "http://xn--bcher-kva.de/"


@pytest.mark.parametrize("value", ["http://[v1.AB]/", "http://[2001:DB8::G]/", "http://example.org/UPPER",
                                   "http://u:P@h/", "http://h/?Q#F"])
def test_uppercase_host_quiet(value):
    assert findings(value, "uppercase-host") == []


# ---------------------------------------------------------------------------
# dot-segments
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("value, span, result", [
    ("http://h/a/./b/../c", "./b/..", "http://h/a/c"),
    ("http://h/a/b/..", "..", "http://h/a/"),
    ("http://h/..", "..", "http://h/"),
    ("http://h/./", ".", "http://h/"),
    ("https://h/a/../../b?x=/../#/./", "../..", "https://h/b?x=/../#/./"),
    ("//h/./x", ".", "//h/x"),
    ("/a/../b", "..", "/b"),
    ("file:///etc/./passwd", ".", "file:///etc/passwd"),
    ("http://\u4f8b\u3048.jp/\u30d1/../\u30b9", "..", "http://\u4f8b\u3048.jp/\u30b9"),
])
def test_dot_segments(value, span, result):
    f = one(value, "dot-segments")
    assert value[f.start:f.end] == span
    assert f.code == "IRI603" and f.severity == Severity.WARNING
    assert "dot-segments" in f.message
    assert fixed(value, "dot-segments") == result


def test_dot_segments_message_names_the_kinds():
    f = one("http://h/a/./b/../c", "dot-segments")
    assert "('.' and '..')" in f.message and "resolves to '/a/c'" in f.message


@pytest.mark.parametrize("value", [
    "../x", "./x", "a/../b", "x/./y",  # relative-path references: meaningful
    "urn:a/../b", "data:text/plain,../../x", "mailto:a/../b",  # opaque paths
    "http://h/a.b/.x/..y/...", "http://h/%2E%2E/x",  # not dot-segments
])
def test_dot_segments_quiet(value):
    assert findings(value, "dot-segments") == []


@pytest.mark.parametrize("value", [
    "file:/.//etc",  # would become file://etc: a host
    "http://h/a/%2E/../b",  # browsers also remove %2E: removing only "." would differ
    "http://h/a/.%2e/./b",
])
def test_dot_segments_without_a_safe_fix(value):
    f = one(value, "dot-segments")
    assert f.fixes == []
    assert "by hand" in f.message


# ---------------------------------------------------------------------------
# default-port
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("value, span, result", [
    ("http://h:80/", ":80", "http://h/"),
    ("HTTP://h:080", ":080", "HTTP://h"),
    ("https://u@h:443/x?y", ":443", "https://u@h/x?y"),
    ("ws://h:80/", ":80", "ws://h/"),
    ("wss://h:443/", ":443", "wss://h/"),
    ("ftp://h:21/pub", ":21", "ftp://h/pub"),
    ("http://[::1]:80/", ":80", "http://[::1]/"),
    ("http://h:/", ":", "http://h/"),
    ("foo://h:/x", ":", "foo://h/x"),
    ("//h:", ":", "//h"),
])
def test_default_port(value, span, result):
    f = one(value, "default-port")
    assert value[f.start:f.end] == span
    assert f.code == "IRI604" and f.severity == Severity.INFO
    assert ("default port" in f.message) or ("empty port" in f.message)
    assert fixed(value, "default-port") == result


@pytest.mark.parametrize("value", ["https://h:80/", "http://h:443/", "http://h:8080/", "//h:80/",
                                   "foo://h:80/", "http://h/:80", "http://h:\u0668\u0660/"])
def test_default_port_quiet(value):
    assert findings(value, "default-port") == []


# ---------------------------------------------------------------------------
# The property: safe fixes keep the URI (RFC 3986 s6.2.2 / s6.2.3)
# ---------------------------------------------------------------------------

DEFAULTS = {"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}
_SPLIT_RE = re.compile(r"(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?\Z", re.S)
_ESC_RE = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def _pct_norm(s):
    """Uppercase escape hex, decode unreserved characters (%2E included)."""
    def repl(m):
        ch = chr(int(m.group(1), 16))
        return ch if ch in _UNRESERVED else "%" + m.group(1).upper()
    return _ESC_RE.sub(repl, s)


def _lower_ascii(s):
    return "".join(c.lower() if "A" <= c <= "Z" else c for c in s)


def _remove_dots(path):
    """RFC 3986 s5.2.4 for a path that starts with "/", with a stack."""
    if not path:
        return path
    segs = path.split("/")[1:]
    out = []
    for i, seg in enumerate(segs):
        last = i == len(segs) - 1
        if seg in (".", ".."):
            if seg == ".." and out:
                out.pop()
            if last:
                out.append("")
        else:
            out.append(seg)
    return "/" + "/".join(out)


def normalize(iri):
    """An independent RFC 3986 s6.2.2-6.2.3 normalizer, stricter than the
    RFC on one point, like browsers: %2E is decoded *before* dot-segments
    are removed, so a fix that treats "/%2E/.." differently from "/./.."
    is caught.  Returns the components (None = absent), so that a path
    "//x" without authority is not mistaken for an authority."""
    scheme, auth, path, query, frag = _SPLIT_RE.match(iri).groups()
    if scheme is not None:
        scheme = _lower_ascii(scheme)
    if auth is not None:
        userinfo = None
        if "@" in auth:
            userinfo, auth = auth.rsplit("@", 1)
        if auth.startswith("["):
            close = auth.index("]") + 1
            host, port = auth[:close], auth[close + 1:] if auth[close:close + 1] == ":" else None
        elif ":" in auth:
            host, port = auth.rsplit(":", 1)
        else:
            host, port = auth, None
        host = _pct_norm(_lower_ascii(_pct_norm(host)))
        host = re.sub(r"%[0-9a-f]{2}", lambda m: m.group().upper(), host)
        if port == "" or (port is not None and port.isdigit() and scheme is not None
                          and DEFAULTS.get(scheme) == str(int(port))):
            port = None
        auth = (None if userinfo is None else _pct_norm(userinfo), host, port)
    path = _pct_norm(path)
    if path.startswith("/"):
        path = _remove_dots(path)
    return (scheme, auth, path,
            None if query is None else _pct_norm(query),
            None if frag is None else _pct_norm(frag))


def test_the_normalizer_sees_what_a_bad_fix_would_break():
    # Equal:
    assert normalize("HTTP://Example.COM:80/a/./b/../c") == normalize("http://example.com/a/c")
    assert normalize("http://h:/%7e") == normalize("http://h/~")
    # Not equal: the mistakes a broken fix could make.
    assert normalize("http://h/a/%2E/..") != normalize("http://h/a/")
    assert normalize("http://h/A") != normalize("http://h/a")
    assert normalize("https://h:80/") != normalize("https://h/")
    assert normalize("http://%C3%A4.de/") != normalize("http://%c3%a4x.de/")
    assert normalize("file:/.//etc") != normalize("file://etc")
    assert normalize("http://h/a/b/..") != normalize("http://h/a")


SCHEMES = ["http", "HTTP", "Https", "ws", "WSS", "ftp", "Ftp", "foo", "Foo+Bar", "file", None]
LABELS = ["example", "Example", "COM", "xn--bcher-kva", "XN--BCHER-KVA", "b\u00fccher", "B\u00dcCHER",
          "%41b", "%c3%a4", "%C3%A4X", "a-b", "w3"]
SEGMENTS = [".", "..", "", "a", "B", "%2E", "%2e%2E", ".x", "x.", "..%2E", "%41", "\u30d1", "a%2Fb", "~u"]


@st.composite
def iri_with_preferred_form_features(draw):
    scheme = draw(st.sampled_from(SCHEMES))
    parts = [] if scheme is None else [scheme + ":"]
    has_auth = scheme is None or scheme.lower() in DEFAULTS or draw(st.booleans())
    if has_auth:
        parts.append("//")
        if draw(st.integers(0, 4)) == 0:
            parts.append(draw(st.sampled_from(["u", "U:P", "%55"])) + "@")
        kind = draw(st.integers(0, 5))
        if kind == 0:
            parts.append(draw(st.sampled_from(["[2001:DB8::A]", "[::1]", "[v7.AB]", "[FE80::1:Ab]"])))
        elif kind == 1:
            parts.append("192.0.2.1")
        else:
            parts.append(".".join(draw(st.lists(st.sampled_from(LABELS), min_size=1, max_size=3))))
        parts.append(draw(st.sampled_from(["", "", ":", ":80", ":080", ":443", ":21", ":8080", ":0"])))
    segs = draw(st.lists(st.sampled_from(SEGMENTS), max_size=6))
    if segs and (has_auth or draw(st.booleans())):
        parts.append("/" + "/".join(segs))  # an absolute path
    elif segs and not has_auth:
        if segs[0] == "":
            segs[0] = "a"  # a rootless path must not start with "//"
        parts.append("/".join(segs))
    if draw(st.booleans()):
        parts.append("?" + draw(st.sampled_from(["", "a=/../b", "Q=%7E", "./x"])))
    if draw(st.booleans()):
        parts.append("#" + draw(st.sampled_from(["", "/./", "F%2e"])))
    value = "".join(parts)
    if scheme is None and not has_auth and (not value or ":" in value.split("/")[0]):
        value = "./" + value  # keep it a relative reference
    return value


PROPERTY = settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))


@PROPERTY
@given(iri_with_preferred_form_features())
def test_safe_fixes_keep_the_uri(value):
    fs = check_reference(value, select=FAMILY)
    edits = [e for f in fs for fx in f.fixes if fx.safe for e in fx.edits]
    spans = sorted((e.start, e.end) for e in edits)
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans  # no overlap
    after = apply(value, edits)
    assert normalize(after) == normalize(value), (value, after, [f.rule.name for f in fs])
    # and one pass is enough: nothing safe is left to fix
    again = check_reference(after, select=FAMILY)
    assert not [fx for f in again for fx in f.fixes if fx.safe], (value, after)
