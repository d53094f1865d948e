"""Issue 8, items 3 and 4, through the real command line.

Item 3, fault injection for ``--fix``: every case drives ``irilint check
--fix`` and then looks at the bytes, modes, mtimes and directory listings on
disk.  Item 4, hostile and broken input: every bad path is put next to a
good file with a real finding, and the test asserts that the message names
the bad path in plain words, that the good file's finding is still reported
(the run goes on) and that the exit status is the documented one:

* 0 - nothing at or above the fail level was found;
* 1 - something was;
* 2 - some path could not be checked or fixed (I/O error, undecodable file,
  broken configuration, missing path, symlink loop), whatever else was found.

Skipping is not failing: a file over ``max-file-size`` and a binary file
named on the command line get a ``skipped`` note and do not change the exit
status (binary files met in a directory walk are skipped silently: images
and archives are expected there).

Cases that need a fault the real system will not produce on demand (a failed
rename, a change between read and write, permission denied while running as
root) run in-process through ``irilint.cli.main`` with monkeypatching; the
others run ``python -m irilint`` in a subprocess.
"""
from __future__ import annotations

import errno
import os
import random
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import List, Sequence, Tuple

import pytest

from irilint import config as config_module
from irilint import fileio
from irilint.cli import main

# A file with one real finding (IRI401) that --fix repairs ("%zz" -> "%25zz").
GOOD_TEXT = "see http://example.org/a%zz here\n"
GOOD_FIXED = "see http://example.org/a%25zz here\n"
FLAGS = ["--no-cache", "--jobs", "1", "--no-progress"]

pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX file semantics (modes, symlinks, signals)")


def cli(args: Sequence[str], cwd: Path, timeout: float = 300) -> Tuple[int, str, str]:
    """The real command line in a subprocess."""
    env = dict(os.environ, IRILINT_NO_CACHE="1")
    proc = subprocess.run(
        [sys.executable, "-m", "irilint", "check", *FLAGS, *args],
        cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env,
    )
    return proc.returncode, proc.stdout, proc.stderr


def cli_inprocess(args: Sequence[str], cwd: Path, capsys, monkeypatch) -> Tuple[int, str, str]:
    """The same command line through ``main(argv)``, for monkeypatched faults."""
    monkeypatch.chdir(cwd)
    config_module.clear_cache()
    capsys.readouterr()
    code = main(["check", *FLAGS, *args])
    out, err = capsys.readouterr()
    return code, out, err


def temporaries(directory: Path) -> List[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith(".irilint-"))


def good_file(directory: Path, name: str = "good.txt") -> Path:
    path = directory / name
    path.write_text(GOOD_TEXT, encoding="utf-8")
    return path


def assert_good_reported(out: str, name: str = "good.txt") -> None:
    assert any(line.startswith(f"{name}:1:") and "IRI401" in line for line in out.splitlines()), out


def error_lines(err: str, name: str) -> List[str]:
    return [line for line in err.splitlines() if name in line]


def set_old_mtime(path: Path) -> int:
    """Move the mtime an hour back, so that "unchanged" and "rewritten" can
    be told apart without sleeping; returns the new mtime in ns."""
    old = time.time_ns() - 3600 * 10**9
    os.utime(path, ns=(old, old))
    return path.stat().st_mtime_ns


# ---------------------------------------------------------------------------
# Item 3: fault injection for --fix


def test_fix_read_only_file_reported_exit_2_unchanged(tmp_path):
    """A read-only file is not written (even by root, which could), the
    error names it, its findings are still reported, and a writable file
    in the same run is fixed."""
    ro = tmp_path / "ro.txt"
    ro.write_text(GOOD_TEXT, encoding="utf-8")
    ro.chmod(0o444)
    mtime = set_old_mtime(ro)
    good = good_file(tmp_path)
    code, out, err = cli(["--fix", "ro.txt", "good.txt"], tmp_path)
    assert code == 2
    assert error_lines(err, "ro.txt") == ["irilint: error: ro.txt: fixes not written: permission denied"]
    assert ro.read_text(encoding="utf-8") == GOOD_TEXT
    assert ro.stat().st_mtime_ns == mtime
    assert stat.S_IMODE(ro.stat().st_mode) == 0o444
    assert any(line.startswith("ro.txt:1:") and "IRI401" in line for line in out.splitlines())
    assert good.read_text(encoding="utf-8") == GOOD_FIXED
    assert temporaries(tmp_path) == []


@pytest.mark.parametrize("change", ["changed", "changed-same-size-and-mtime", "deleted"])
def test_fix_file_changed_or_deleted_between_read_and_write_not_overwritten(tmp_path, capsys, monkeypatch, change):
    """Another program saves (or deletes) the file after irilint read it and
    before the fixed text is written: its version wins, the fix is dropped
    with an error.  The same-size, same-mtime rewrite is only caught by the
    content digest."""
    target = tmp_path / "a.txt"
    target.write_text(GOOD_TEXT, encoding="utf-8")
    theirs = GOOD_TEXT.replace("here", "HERE")
    assert len(theirs) == len(GOOD_TEXT)
    real_write = fileio.write_atomic

    def concurrent_save_then_write(doc, new_text):
        if change == "deleted":
            target.unlink()
        else:
            st = target.stat()
            with open(target, "r+", encoding="utf-8", newline="") as f:  # same inode
                f.write(theirs if change != "changed" else theirs + "more\n")
            if change == "changed-same-size-and-mtime":
                os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
        return real_write(doc, new_text)

    monkeypatch.setattr(fileio, "write_atomic", concurrent_save_then_write)
    code, _, err = cli_inprocess(["--fix", "a.txt"], tmp_path, capsys, monkeypatch)
    assert code == 2
    reason = "file was deleted since it was read" if change == "deleted" else "file changed on disk since it was read"
    assert error_lines(err, "a.txt") == [f"irilint: error: a.txt: fixes not written: {reason}"]
    if change == "deleted":
        assert not target.exists()  # not re-created from a stale copy
    else:
        expected = theirs if change != "changed" else theirs + "more\n"
        assert target.read_text(encoding="utf-8") == expected
    assert temporaries(tmp_path) == []


def test_fix_rename_fails_original_intact_no_temporary_left(tmp_path, capsys, monkeypatch):
    target = tmp_path / "a.txt"
    target.write_text(GOOD_TEXT, encoding="utf-8")
    good = tmp_path / "sub" / "good.txt"
    good.parent.mkdir()
    good.write_text(GOOD_TEXT, encoding="utf-8")
    real_replace = os.replace

    def failing_replace(src, dst, *a, **k):
        if os.path.basename(dst) == "a.txt":
            raise OSError(errno.EIO, "Input/output error", dst)
        return real_replace(src, dst, *a, **k)

    import irilint.fileio as fileio

    real_exchange = fileio._exchange

    def failing_exchange(a, b):  # the swap that replaces the file where the system has one
        if os.path.basename(b) == "a.txt":
            raise OSError(errno.EIO, "Input/output error", b)
        return real_exchange(a, b)

    monkeypatch.setattr(os, "replace", failing_replace)
    monkeypatch.setattr(fileio, "_exchange", failing_exchange)
    code, out, err = cli_inprocess(["--fix", "a.txt", "sub/good.txt"], tmp_path, capsys, monkeypatch)
    assert code == 2
    assert error_lines(err, "a.txt") == ["irilint: error: a.txt: fixes not written: input/output error"]
    assert target.read_text(encoding="utf-8") == GOOD_TEXT
    assert temporaries(tmp_path) == []
    assert any(line.startswith("a.txt:1:") and "IRI401" in line for line in out.splitlines())
    assert good.read_text(encoding="utf-8") == GOOD_FIXED  # the run went on


_SLOW_WRITER = textwrap.dedent(
    """
    import os, sys, time
    import irilint.fileio as fileio

    real_write_all = fileio._write_all

    def half_then_hang(fd, data):
        real_write_all(fd, data[: len(data) // 2])
        os.fsync(fd)
        open(sys.argv[1], "w").close()  # tell the test: killed now is mid-write
        time.sleep(600)
        real_write_all(fd, data[len(data) // 2 :])

    fileio._write_all = half_then_hang
    from irilint.cli import main
    sys.exit(main(sys.argv[2:]))
    """
)


def test_fix_process_killed_mid_write_original_intact(tmp_path):
    """SIGKILL in the middle of writing the new content: the original is on
    disk untouched.  The half-written temporary file cannot be removed by a
    killed process; it is hidden (leading dot), carries the writer's pid
    (``.irilint-<pid>-*.tmp``), and the next ``--fix`` in that directory
    removes it because that pid no longer runs."""
    work = tmp_path / "work"
    work.mkdir()
    target = work / "a.txt"
    original = GOOD_TEXT * 200
    target.write_text(original, encoding="utf-8")
    marker = tmp_path / "half-written"
    script = tmp_path / "slow_writer.py"
    script.write_text(_SLOW_WRITER, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, str(script), str(marker), "check", *FLAGS, "--fix", "a.txt"],
        cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 240
        while not marker.exists():
            assert proc.poll() is None, "the CLI ended before writing"
            assert time.monotonic() < deadline, "the CLI never reached the write"
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert target.read_text(encoding="utf-8") == original
    left = temporaries(work)
    assert len(left) == 1 and left[0].startswith(f".irilint-{proc.pid}-") and left[0].endswith(".tmp")
    # Walking the directory does not lint the leftover.
    code, out, _ = cli(["."], work)
    assert {line.split(":")[0] for line in out.splitlines()} == {"a.txt"}
    # The next fix in this directory cleans it up, and fixes the file.
    code, _, err = cli(["--fix", "a.txt"], work)
    assert code == 0, err
    assert target.read_text(encoding="utf-8") == GOOD_FIXED * 200
    assert temporaries(work) == []


def test_fix_keeps_temporaries_of_a_writer_still_running(tmp_path):
    """Only the leftovers of dead writers are removed: a temporary file
    whose pid runs (here: this test process) may be another irilint's write
    in progress, and unrelated dot-files are never touched."""
    alive = tmp_path / f".irilint-{os.getpid()}-inprogress.tmp"
    alive.write_bytes(b"half")
    unrelated = tmp_path / ".irilint-notes.tmp"
    unrelated.write_bytes(b"mine")
    good = good_file(tmp_path)
    code, _, err = cli(["--fix", "good.txt"], tmp_path)
    assert code == 0, err
    assert good.read_text(encoding="utf-8") == GOOD_FIXED
    assert alive.read_bytes() == b"half" and unrelated.read_bytes() == b"mine"


def test_fix_process_killed_at_random_points_never_leaves_a_mix(tmp_path):
    """Kill the real CLI at random moments of a --fix run (seeded): the file
    is always either the original or the fully fixed text, never a mix."""
    target = tmp_path / "a.txt"
    original = GOOD_TEXT * 1500
    fixed = GOOD_FIXED * 1500
    target.write_text(original, encoding="utf-8")
    start = time.monotonic()
    assert cli(["--fix", "-q", "a.txt"], tmp_path)[0] == 0
    full_run = time.monotonic() - start
    assert target.read_text(encoding="utf-8") == fixed
    rng = random.Random(8)
    for _ in range(6):
        target.write_text(original, encoding="utf-8")
        proc = subprocess.Popen(
            [sys.executable, "-m", "irilint", "check", *FLAGS, "--fix", "-q", "a.txt"],
            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.3, 1.1) * full_run)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        content = target.read_text(encoding="utf-8")
        assert content in (original, fixed)
    # Either way the next run leaves no temporary file behind.
    target.write_text(original, encoding="utf-8")
    assert cli(["--fix", "-q", "a.txt"], tmp_path)[0] == 0
    assert temporaries(tmp_path) == []


def test_fix_symlink_edits_target_and_link_stays_link(tmp_path):
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    target = real_dir / "a.txt"
    target.write_text(GOOD_TEXT, encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(os.path.join("real", "a.txt"))
    code, _, err = cli(["--fix", "link.txt"], tmp_path)
    assert code == 0, err
    assert os.path.islink(link)
    assert os.readlink(link) == os.path.join("real", "a.txt")
    assert target.read_text(encoding="utf-8") == GOOD_FIXED
    assert temporaries(tmp_path) == [] and temporaries(real_dir) == []


def test_fix_keeps_permissions_and_mtime_semantics(tmp_path):
    """A fixed file keeps its permission bits (executable, group-only...) and
    gets a new mtime; a file with nothing to fix is not rewritten: same
    inode, same mtime."""
    script = tmp_path / "tool.sh"
    script.write_text("#!/bin/sh\n# " + GOOD_TEXT, encoding="utf-8")
    script.chmod(0o750)
    private = tmp_path / "private.txt"
    private.write_text(GOOD_TEXT, encoding="utf-8")
    private.chmod(0o600)
    clean = tmp_path / "clean.txt"
    clean.write_text("nothing to fix: http://example.org/a\n", encoding="utf-8")
    clean.chmod(0o640)
    old = {p: set_old_mtime(p) for p in (script, private, clean)}
    clean_ino = clean.stat().st_ino
    code, _, err = cli(["--fix", "tool.sh", "private.txt", "clean.txt"], tmp_path)
    assert code == 0, err
    assert stat.S_IMODE(script.stat().st_mode) == 0o750
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert stat.S_IMODE(clean.stat().st_mode) == 0o640
    assert script.stat().st_mtime_ns > old[script] and private.stat().st_mtime_ns > old[private]
    assert clean.stat().st_mtime_ns == old[clean] and clean.stat().st_ino == clean_ino
    assert private.read_text(encoding="utf-8") == GOOD_FIXED


# Each file holds two findings whose fixes are "%zz" -> "%25zz" and the host
# "Example.ORG" -> "example.org"; everything else must come back byte for byte.
_ROUND_TRIP_TEXT = (
    "crlf http://example.org/a%zz x\r\n"
    "lf line\n"
    "cr line\r"
    "http://Example.ORG/b \u00e9\u00e8 \U0001f600\r\n"
    "no newline at end"
)


@pytest.mark.parametrize(
    "encoding, bom",
    [
        pytest.param("utf-8", b"", id="mixed-line-endings"),
        pytest.param("utf-8", b"\xef\xbb\xbf", id="utf8-bom"),
        pytest.param("utf-16-le", b"\xff\xfe", id="utf16-le"),
        pytest.param("utf-16-be", b"\xfe\xff", id="utf16-be"),
    ],
)
def test_fix_round_trips_bom_utf16_and_mixed_line_endings(tmp_path, encoding, bom):
    path = tmp_path / "doc.txt"
    path.write_bytes(bom + _ROUND_TRIP_TEXT.encode(encoding))
    code, _, err = cli(["--fix", "doc.txt"], tmp_path)
    assert code == 0, err
    expected_text = _ROUND_TRIP_TEXT.replace("a%zz", "a%25zz").replace("Example.ORG", "example.org")
    assert path.read_bytes() == bom + expected_text.encode(encoding)


# ---------------------------------------------------------------------------
# Item 4: hostile and broken input


@pytest.mark.parametrize(
    "data, reason",
    [
        pytest.param(b"caf\xe9 http://example.org/\n",
                     "cannot decode as UTF-8 at byte 3 (invalid continuation byte)", id="latin1-as-utf8"),
        pytest.param(b"\xff\xfeh\x00t\x00t",
                     "cannot decode as UTF-16-LE at byte 6 (truncated data)", id="utf16-odd-length"),
        pytest.param(b"\xef\xbb\xbfok \xed\xa0\x80 surrogate",
                     "cannot decode as UTF-8 at byte 6 (invalid continuation byte)", id="utf8-encoded-surrogate"),
    ],
)
def test_hostile_undecodable_bytes(tmp_path, data, reason):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(data)
    good_file(tmp_path)
    code, out, err = cli(["--fix", "bad.txt", "good.txt"], tmp_path)
    assert code == 2
    assert error_lines(err, "bad.txt") == [f"irilint: error: bad.txt: {reason}"]
    assert bad.read_bytes() == data  # never "repaired"
    assert (tmp_path / "good.txt").read_text(encoding="utf-8") == GOOD_FIXED


def test_hostile_binary_file(tmp_path):
    """Named on the command line: a note says it was skipped and why; the
    exit status is the good file's.  In a directory walk: skipped silently."""
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00http://example.org/a%zz")
    good_file(tmp_path)
    code, out, err = cli(["image.png", "good.txt"], tmp_path)
    assert code == 1
    assert error_lines(err, "image.png") == ["irilint: skipped image.png: binary file (NUL byte at offset 8)"]
    assert_good_reported(out)
    code, out, err = cli(["."], tmp_path)
    assert code == 1 and "image.png" not in err + out
    assert_good_reported(out)


def test_hostile_empty_file(tmp_path):
    """An empty file (or one holding only a BOM) is a valid document without
    IRIs: no message, no error, and --fix leaves it alone."""
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    bom_only = tmp_path / "bom16.txt"
    bom_only.write_bytes(b"\xff\xfe")
    mtimes = {p: set_old_mtime(p) for p in (empty, bom_only)}
    good_file(tmp_path)
    code, out, err = cli(["--fix", "empty.txt", "bom16.txt", "good.txt"], tmp_path)
    assert code == 0, err
    assert "empty.txt" not in err + out and "bom16.txt" not in err + out
    assert empty.read_bytes() == b"" and bom_only.read_bytes() == b"\xff\xfe"
    assert {p: p.stat().st_mtime_ns for p in mtimes} == mtimes
    assert (tmp_path / "good.txt").read_text(encoding="utf-8") == GOOD_FIXED


def test_hostile_huge_file(tmp_path):
    """Over ``max-file-size`` (default 10 MB): skipped with a note naming the
    size and the limit, never read, never written.  A sparse file keeps the
    test cheap."""
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as f:
        f.truncate(25_000_000)
    good_file(tmp_path)
    code, out, err = cli(["--fix", "huge.txt", "good.txt"], tmp_path)
    assert code == 0, err  # good.txt was fixed; nothing left at the fail level
    assert error_lines(err, "huge.txt") == ["irilint: skipped huge.txt: file too large (25 MB > 10 MB limit)"]
    assert huge.stat().st_size == 25_000_000 and temporaries(tmp_path) == []
    good_file(tmp_path)  # the run above fixed it
    code, out, err = cli(["huge.txt", "good.txt"], tmp_path)
    assert code == 1 and "skipped huge.txt" in err
    assert_good_reported(out)


def test_hostile_directory_loop_through_symlinks(tmp_path):
    """Every file is checked once, the loop is named (exit 2: the tree is
    not what its author meant), and the walk does not hang."""
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    good_file(tree / "sub")
    (tree / "sub" / "back").symlink_to("..")
    code, out, err = cli(["tree"], tmp_path)
    assert code == 2
    loop = os.path.join("tree", "sub", "back")
    assert error_lines(err, loop) == [f"irilint: error: {loop}: symlink loop"]
    assert [line.split(":")[0] for line in out.splitlines()] == [os.path.join("tree", "sub", "good.txt")]


def test_hostile_missing_path(tmp_path):
    good_file(tmp_path)
    code, out, err = cli(["nope.md", "good.txt"], tmp_path)
    assert code == 2
    assert error_lines(err, "nope.md") == ["irilint: error: nope.md: no such file or directory"]
    assert_good_reported(out)


def _deny(monkeypatch, fn_name: str, denied: Path) -> None:
    """Root reads everything whatever the modes: make ``os.<fn_name>`` fail
    for ``denied`` as it would for an ordinary user."""
    real = getattr(os, fn_name)

    def fake(path, *args, **kwargs):
        if os.path.abspath(os.fspath(path)) == str(denied):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, fn_name, fake)


def test_hostile_permission_denied_file(tmp_path, capsys, monkeypatch):
    secret = tmp_path / "secret.txt"
    secret.write_text(GOOD_TEXT, encoding="utf-8")
    secret.chmod(0)
    if os.geteuid() == 0:
        _deny(monkeypatch, "open", secret)
    good_file(tmp_path)
    code, out, err = cli_inprocess(["secret.txt", "good.txt"], tmp_path, capsys, monkeypatch)
    secret.chmod(0o644)
    assert code == 2
    assert error_lines(err, "secret.txt") == ["irilint: error: secret.txt: permission denied"]
    assert_good_reported(out)


def test_hostile_permission_denied_directory(tmp_path, capsys, monkeypatch):
    locked = tmp_path / "tree" / "locked"
    locked.mkdir(parents=True)
    (locked / "inside.txt").write_text(GOOD_TEXT, encoding="utf-8")
    good_file(tmp_path / "tree")
    locked.chmod(0)
    if os.geteuid() == 0:
        _deny(monkeypatch, "scandir", locked)
    try:
        code, out, err = cli_inprocess(["tree"], tmp_path, capsys, monkeypatch)
    finally:
        locked.chmod(0o755)
    assert code == 2
    shown = os.path.join("tree", "locked")
    assert error_lines(err, shown) == [f"irilint: error: {shown}: permission denied"]
    assert_good_reported(out, os.path.join("tree", "good.txt"))


# Broken configuration.  What a demanding user expects: the files a broken
# config governs are NOT checked (their settings are unknown, and guessing
# could pass what the config forbids), this is an error (exit 2, so CI fails
# rather than silently skipping them), the error names the config file and
# the line or key, it is said once with the files it kept from being
# checked - and every other file (under another config, or none) is still
# checked and fixed.  A config named with --config governs every path, so
# there the run stops at once with exit 2 and nothing is written.

_BROKEN_TOML = 'select = ["IRI4"\nignore = []\n'


@pytest.mark.parametrize("file_name", ["irilint.toml", "pyproject.toml"])
def test_hostile_broken_toml(tmp_path, file_name):
    governed = tmp_path / "proj"
    governed.mkdir()
    body = _BROKEN_TOML if file_name == "irilint.toml" else "[tool.irilint]\n" + _BROKEN_TOML
    (governed / file_name).write_text(body, encoding="utf-8")
    inside = good_file(governed, "inside.txt")
    other = tmp_path / "other"
    other.mkdir()
    outside = good_file(other)
    code, out, err = cli(["--fix", "proj", "other"], tmp_path)
    assert code == 2
    config_path = str(governed / file_name)
    lines = error_lines(err, config_path)
    assert len(lines) == 1 and "invalid TOML" in lines[0] and "line " in lines[0], err
    assert f"not checked because of this configuration error: {os.path.join('proj', 'inside.txt')}" in err
    assert inside.read_text(encoding="utf-8") == GOOD_TEXT  # not touched
    assert outside.read_text(encoding="utf-8") == GOOD_FIXED  # the run went on


@pytest.mark.parametrize("file_name", ["irilint.toml", "pyproject.toml"])
@pytest.mark.parametrize(
    "setting, expected",
    [
        ('select = "IRI4"', "key 'select': expected a list of strings, got str"),
        ('max-file-size = "10MB"', "key 'max-file-size': expected a positive integer (bytes), got str"),
        ("fail-level = 3", "key 'fail-level'"),
        ('severity = ["error"]', "key 'severity'"),
    ],
)
def test_hostile_config_value_of_wrong_type(tmp_path, file_name, setting, expected):
    governed = tmp_path / "proj"
    governed.mkdir()
    body = setting + "\n" if file_name == "irilint.toml" else "[tool.irilint]\n" + setting + "\n"
    (governed / file_name).write_text(body, encoding="utf-8")
    inside = good_file(governed, "inside.txt")
    good_file(tmp_path)
    code, out, err = cli(["proj/inside.txt", "good.txt"], tmp_path)
    assert code == 2
    lines = error_lines(err, str(governed / file_name))
    assert len(lines) == 1 and expected in lines[0], err
    if file_name == "pyproject.toml":
        assert "[tool.irilint]" in lines[0]
    assert "not checked because of this configuration error: proj/inside.txt" in err
    assert "inside.txt:1:" not in out
    assert_good_reported(out)
    assert inside.read_text(encoding="utf-8") == GOOD_TEXT


def test_hostile_config_tool_irilint_not_a_table(tmp_path):
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "pyproject.toml").write_text("[tool]\nirilint = 3\n", encoding="utf-8")
    good_file(tmp_path / "proj", "inside.txt")
    good_file(tmp_path)
    code, out, err = cli(["proj/inside.txt", "good.txt"], tmp_path)
    assert code == 2
    assert error_lines(err, str(tmp_path / "proj" / "pyproject.toml")) == [
        f"irilint: error: {tmp_path / 'proj' / 'pyproject.toml'}: key 'tool.irilint': expected a table, got int"]
    assert "not checked because of this configuration error: proj/inside.txt" in err
    assert_good_reported(out)


def test_hostile_explicit_config_that_is_broken_stops_the_run(tmp_path):
    (tmp_path / "ci.toml").write_text('select = "IRI4"\n', encoding="utf-8")
    good = good_file(tmp_path)
    code, out, err = cli(["--config", "ci.toml", "--fix", "good.txt"], tmp_path)
    assert code == 2
    assert "ci.toml" in err and "key 'select'" in err
    assert out == "" and good.read_text(encoding="utf-8") == GOOD_TEXT
