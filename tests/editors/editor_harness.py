"""Shared pieces of the real-editor tests (Neovim, Emacs/Eglot, Vim/ALE).

Each test runs a real editor headless, loading exactly the configuration
shipped in ``editors/<editor>/``, against this checkout's language server.
The editor-side driver script writes what it saw to a JSON file that the test
reads.  Editors are never skipped: a missing one fails, naming the Debian
package that provides it.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import pytest

REPO = Path(__file__).resolve().parents[2]
EDITORS = REPO / "editors"
HERE = Path(__file__).resolve().parent

#: The line of the test document with both problems, after an emoji (1 code
#: point, 2 UTF-16 code units, 4 UTF-8 bytes) so that every kind of column
#: differs.
PROBLEM_LINE = "\U0001F600 see http://example.com/100% and http://example.com/abc\u202Egpj.exe"
#: A line before it holding U+2028 LINE SEPARATOR, which no editor and no LSP
#: client counts as a line break (LSP's are CR, LF and CRLF; Python's
#: str.splitlines would split here, and every later line number would drift).
SEPARATOR_LINE = "one line\u2028not two: U+2028 is no line break in LSP"
DOCUMENT = "# irilint editor test\n\n" + SEPARATOR_LINE + "\n" + PROBLEM_LINE + "\n"
PROBLEM_LINE_NO = 3  # 0-based

#: After the safe fix for the percent error.
FIXED_LINE = PROBLEM_LINE.replace("100%", "100%25")

PERCENT_CODE = "IRI401"
BIDI_CODE = "IRI101"
PERCENT_FIX_TITLE = "Encode '%' as '%25'"

#: Every wait inside a driver is bounded by these (seconds); the editor process
#: as a whole is bounded by PROCESS_TIMEOUT.
WAIT_DIAGNOSTICS = 30
WAIT_REQUEST = 15
PROCESS_TIMEOUT = 180


@dataclass(frozen=True)
class Columns:
    """0-based columns of one character of PROBLEM_LINE in each unit."""

    codepoints: int
    utf16: int
    utf8: int


def columns_of(char: str, line: str = PROBLEM_LINE) -> Columns:
    idx = line.index(char)
    before = line[:idx]
    return Columns(
        codepoints=idx,
        utf16=len(before.encode("utf-16-le")) // 2,
        utf8=len(before.encode("utf-8")),
    )


#: The ``%`` of ``100%`` and the U+202E inside the second URL.
PERCENT_COL = columns_of("%")
BIDI_COL = columns_of("\u202E")


def server_command() -> List[str]:
    """This checkout's server: the ``irilint`` script beside sys.executable.

    ``IRILINT_TEST_SERVER_CMD`` (a JSON array) overrides it, to try the
    editors against another build of the server.
    """
    override = os.environ.get("IRILINT_TEST_SERVER_CMD")
    if override:
        cmd = json.loads(override)
        assert isinstance(cmd, list) and cmd and all(isinstance(x, str) for x in cmd), override
        return cmd
    script = os.path.join(os.path.dirname(sys.executable), "irilint")
    if not os.path.exists(script):
        pytest.fail("no 'irilint' console script next to %s: install this checkout "
                    "(pip install -e .) in the interpreter running the tests" % sys.executable)
    return [script, "server"]


def require_program(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail("%r is not installed: this test needs the Debian package %r "
                    "(apt-get install -y %s)" % (name, package, package), pytrace=False)
    return path


def require_path(path: Path, package: str) -> Path:
    if not path.exists():
        pytest.fail("%s is missing: this test needs the Debian package %r "
                    "(apt-get install -y %s)" % (path, package, package), pytrace=False)
    return path


@dataclass
class EditorRun:
    result: Dict
    stdout: str
    stderr: str
    returncode: int
    #: the editor's own version line, when the runner knows it
    version: str = ""

    def explain(self) -> str:
        return ("editor exit %s\n--- result ---\n%s\n--- stdout ---\n%s\n--- stderr ---\n%s"
                % (self.returncode, json.dumps(self.result, indent=1, ensure_ascii=False),
                   self.stdout[-4000:], self.stderr[-4000:]))


def run_editor(argv: Sequence[str], out: Path, *, env: Dict[str, str], cwd: Path,
               timeout: float = PROCESS_TIMEOUT, log: Optional[Path] = None) -> EditorRun:
    """Run one headless editor session; bounded by ``timeout`` seconds."""
    full_env = dict(os.environ)
    full_env.update(env)
    try:
        proc = subprocess.run(list(argv), cwd=str(cwd), env=full_env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        partial = out.read_text(encoding="utf-8") if out.exists() else "(no result file)"
        logtext = log.read_text(encoding="utf-8", errors="replace")[-4000:] if log and log.exists() else ""
        pytest.fail("%s did not finish within %ss (a hung handler?)\nresult so far: %s\n"
                    "stdout: %s\nstderr: %s\nlog: %s"
                    % (argv[0], timeout, partial, _text(exc.stdout), _text(exc.stderr), logtext))
    stdout = proc.stdout.decode("utf-8", "replace")
    stderr = proc.stderr.decode("utf-8", "replace")
    if log is not None and log.exists():
        stderr += "\n--- log ---\n" + log.read_text(encoding="utf-8", errors="replace")[-6000:]
    if not out.exists():
        pytest.fail("%s wrote no result file (exit %s)\nstdout: %s\nstderr: %s"
                    % (argv[0], proc.returncode, stdout[-4000:], stderr[-4000:]))
    result = json.loads(out.read_text(encoding="utf-8"))
    return EditorRun(result, stdout, stderr, proc.returncode)


NEOVIM_CONFIG = EDITORS / "neovim" / "irilint.lua"


def _vim_escape(path) -> str:
    return str(path).replace("\\", "\\\\").replace(" ", "\\ ")


def nvim_version(nvim: str) -> str:
    out = subprocess.run([nvim, "--version"], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                         timeout=30).stdout.decode("utf-8", "replace")
    return out.splitlines()[0] if out else "?"


def run_neovim(driver: Path, out: Path, *, env: Dict[str, str], cwd: Path, state: Path,
               wait_ms: int, request_ms: int = WAIT_REQUEST * 1000,
               timeout: float = PROCESS_TIMEOUT) -> EditorRun:
    """Headless Neovim loading only the shipped editors/neovim/irilint.lua
    and then ``driver``, which writes its JSON result to ``out``.  Neovim's
    own files (its LSP log under $XDG_CACHE_HOME/nvim) go below ``state``."""
    nvim = require_program("nvim", "neovim")
    full_env = {
        "IRILINT_SERVER_CMD": json.dumps(server_command()),
        "IRILINT_TEST_OUT": str(out),
        "IRILINT_TEST_WAIT_MS": str(wait_ms),
        "IRILINT_TEST_REQUEST_MS": str(request_ms),
        "XDG_CACHE_HOME": str(state / "cache"),
        "XDG_STATE_HOME": str(state / "state"),
        "XDG_DATA_HOME": str(state / "data"),
    }
    full_env.update(env)
    run = run_editor(
        [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n",
         "-c", "filetype on",
         "-c", "lua vim.lsp.set_log_level('debug')",
         "-c", "luafile " + _vim_escape(NEOVIM_CONFIG),
         "-c", "luafile " + _vim_escape(driver)],
        out, env=full_env, cwd=cwd, timeout=timeout, log=state / "cache" / "nvim" / "lsp.log")
    run.version = nvim_version(nvim)
    return run


def _text(data) -> str:
    if data is None:
        return ""
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")[-4000:]
    return str(data)[-4000:]


def write_document(root: Path, name: str) -> Path:
    path = root / name
    path.write_bytes(DOCUMENT.encode("utf-8"))
    return path


def by_code(diagnostics: List[Dict], code: str) -> List[Dict]:
    return [d for d in diagnostics if str(d.get("code")) == code]


def run_editor_in_terminal(argv: Sequence[str], out: Path, *, env: Dict[str, str], cwd: Path,
                           timeout: float = PROCESS_TIMEOUT, log: Optional[Path] = None) -> EditorRun:
    """Run an interactive editor (its command loop, idle timers and prompts) on a pseudo-terminal.

    Batch modes run no command loop, so nothing that waits for the editor to
    be idle (Eglot's didChange, Flymake's checks) would run there.  The
    screen output is drained and kept (its tail shows in failures); the
    editor-side driver feeds the keys and writes ``out``.
    """
    import pty
    import select
    import struct
    import termios
    import fcntl
    import time

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 132, 0, 0))
    full_env = dict(os.environ)
    full_env.update({"TERM": "xterm-256color", "COLUMNS": "132", "LINES": "40"})
    full_env.update(env)

    def controlling_terminal():
        # A session of its own whose controlling terminal is the pty (stdin):
        # the editor opens /dev/tty.
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(list(argv), cwd=str(cwd), env=full_env, stdin=slave, stdout=slave,
                            stderr=slave, preexec_fn=controlling_terminal, close_fds=True)
    os.close(slave)
    screen = bytearray()
    deadline = time.monotonic() + timeout
    open_ = True
    try:
        while True:
            if open_:
                ready, _, _ = select.select([master], [], [], 0.2)
                if ready:
                    try:
                        chunk = os.read(master, 65536)
                    except OSError:  # EIO: every process closed the terminal
                        chunk = b""
                    if chunk:
                        screen += chunk
                        del screen[:-20000]
                    else:
                        open_ = False
            else:
                time.sleep(0.2)
            if proc.poll() is not None and (not open_ or not ready):
                break
            if time.monotonic() > deadline:
                proc.kill()
                proc.wait()
                partial = out.read_text(encoding="utf-8") if out.exists() else "(no result file)"
                logtext = log.read_text(encoding="utf-8", errors="replace")[-4000:] \
                    if log and log.exists() else ""
                pytest.fail("%s did not finish within %ss (a hung handler?)\nresult so far: %s\n"
                            "screen: %s\nlog: %s" % (argv[0], timeout, partial,
                                                     _text(bytes(screen)), logtext))
    finally:
        os.close(master)
    screen_text = bytes(screen).decode("utf-8", "replace")
    stderr = ""
    if log is not None and log.exists():
        stderr = "--- log ---\n" + log.read_text(encoding="utf-8", errors="replace")[-6000:]
    if not out.exists():
        pytest.fail("%s wrote no result file (exit %s)\nscreen: %s\n%s"
                    % (argv[0], proc.returncode, screen_text[-4000:], stderr))
    result = json.loads(out.read_text(encoding="utf-8"))
    return EditorRun(result, screen_text, stderr, proc.returncode)
