"""Every message the command line can print on stderr names its path (or,
for a usage error, the option) and says what to do: one test per row of the
troubleshooting table in the README.  The disk-full and cache messages are
produced by tests/test_faults.py.

The runs are in-process (``irilint.cli.main``) so that faults the real
system will not give on demand (permission denied while running as root,
a file changed between the last check and the rename) can be patched in.
"""
from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import List, Sequence, Tuple

import pytest

from irilint import config as config_module
from irilint import fileio
from irilint.cli import main
from irilint.messages import ADVICE, CONFIG_ADVICE, advice

BROKEN = "see http://example.org/a%zz here\n"
FLAGS = ["--no-cache", "--jobs", "1", "--no-progress"]


def run(args: Sequence[str], cwd: Path, capsys, monkeypatch, command: str = "check") -> Tuple[int, List[str]]:
    monkeypatch.chdir(cwd)
    config_module.clear_cache()
    capsys.readouterr()
    code = main([command, *FLAGS, *args] if command == "check" else [command, *args])
    return code, capsys.readouterr().err.splitlines()


def hint(err: List[str]) -> List[str]:
    return [line[len("irilint: hint: "):] for line in err if line.startswith("irilint: hint: ")]


def test_missing_path(tmp_path, capsys, monkeypatch):
    code, err = run(["nope.txt"], tmp_path, capsys, monkeypatch)
    assert code == 2
    assert "irilint: error: nope.txt: no such file or directory" in err
    assert hint(err) == ["check the path (a typo, or run from another folder?), or remove the dangling link"]


def test_broken_symbolic_link(tmp_path, capsys, monkeypatch):
    (tmp_path / "d").mkdir()
    os.symlink(tmp_path / "gone.txt", tmp_path / "d" / "link.txt")
    code, err = run(["d/link.txt"], tmp_path, capsys, monkeypatch)
    assert code == 2
    assert any(line.startswith("irilint: error: d/link.txt: ") and "broken symbolic link" in line for line in err), err
    assert hint(err) == [advice("x: broken symbolic link")]


def test_permission_denied_reading(tmp_path, capsys, monkeypatch):
    secret = tmp_path / "secret.txt"
    secret.write_text(BROKEN, encoding="utf-8")
    real = os.open

    def deny(path, *a, **k):
        if os.path.abspath(os.fspath(path)) == str(secret):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real(path, *a, **k)

    monkeypatch.setattr(os, "open", deny)
    code, err = run(["secret.txt"], tmp_path, capsys, monkeypatch)
    assert code == 2
    assert "irilint: error: secret.txt: permission denied" in err
    assert hint(err) == ["make it readable (chmod u+r, or a+rx for a folder), or leave it out with "
                         "'extend-exclude' in the configuration"]


def test_symlink_loop(tmp_path, capsys, monkeypatch):
    (tmp_path / "d").mkdir()
    os.symlink(tmp_path / "d", tmp_path / "d" / "again")
    code, err = run(["d", "--follow-symlinks"], tmp_path, capsys, monkeypatch)
    assert code == 2
    assert any("d/again" in line and "symlink loop" in line for line in err), err
    assert advice("x: symlink loop") in hint(err)


def test_link_outside_the_tree_is_skipped(tmp_path, capsys, monkeypatch):
    (tmp_path / "outside.txt").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "d").mkdir()
    os.symlink(tmp_path / "outside.txt", tmp_path / "d" / "link.txt")
    code, err = run(["d"], tmp_path, capsys, monkeypatch)
    assert code == 0
    assert ("irilint: skipped d/link.txt: symbolic link to a path outside the checked tree, not followed "
            "(--follow-symlinks follows it)") in err
    assert hint(err) == ["pass --follow-symlinks to check what it points to, or name that path"]


def test_not_a_regular_file(tmp_path, capsys, monkeypatch):
    os.mkfifo(tmp_path / "pipe")
    code, err = run(["pipe"], tmp_path, capsys, monkeypatch)
    assert any(line.startswith("irilint: ") and "pipe: not a regular file" in line for line in err), err
    assert hint(err) == ["name files and folders only (not devices, sockets or pipes)"]


def test_binary_file_named_is_skipped(tmp_path, capsys, monkeypatch):
    (tmp_path / "b.txt").write_bytes(b"ab\x00cd")
    code, err = run(["b.txt"], tmp_path, capsys, monkeypatch)
    assert code == 0
    assert "irilint: skipped b.txt: binary file (NUL byte at offset 2)" in err
    assert hint(err) == ["nothing to do: irilint reads text files only (leave it off the command line)"]


def test_file_too_large_is_skipped(tmp_path, capsys, monkeypatch):
    (tmp_path / "irilint.toml").write_text("max-file-size = 10\n", encoding="utf-8")
    (tmp_path / "big.txt").write_text(BROKEN, encoding="utf-8")
    code, err = run(["big.txt"], tmp_path, capsys, monkeypatch)
    assert any(line.startswith("irilint: skipped big.txt: file too large (") for line in err), err
    assert hint(err) == ["raise 'max-file-size' in the configuration to check it, or leave it out with "
                         "'extend-exclude' in the configuration"]


def test_undecodable_file(tmp_path, capsys, monkeypatch):
    (tmp_path / "bad.txt").write_bytes(b"http://e.org/\xff\xfe\n")
    code, err = run(["bad.txt"], tmp_path, capsys, monkeypatch)
    assert code == 2
    assert any(line.startswith("irilint: error: bad.txt: cannot decode as UTF-8 at byte 13") for line in err), err
    assert hint(err) == ["save the file as UTF-8, or make the encoding it declares match its bytes"]


def test_fix_on_a_read_only_file(tmp_path, capsys, monkeypatch):
    f = tmp_path / "ro.txt"
    f.write_text(BROKEN, encoding="utf-8")
    f.chmod(0o444)
    code, err = run(["--fix", "ro.txt"], tmp_path, capsys, monkeypatch)
    assert code == 2
    assert "irilint: error: ro.txt: fixes not written: permission denied" in err
    assert hint(err) == ["make the file writable (chmod u+w FILE), or run without --fix"]


def test_fix_on_a_file_changed_since_it_was_read(tmp_path, capsys, monkeypatch):
    f = tmp_path / "a.txt"
    f.write_text(BROKEN, encoding="utf-8")
    real = fileio.read_document

    def read_then_change(path, *a, **k):
        doc = real(path, *a, **k)
        Path(path).write_text("edited meanwhile " + BROKEN, encoding="utf-8")
        return doc

    monkeypatch.setattr(fileio, "read_document", read_then_change)
    code, err = run(["--fix", "a.txt"], tmp_path, capsys, monkeypatch)
    assert code == 2
    assert "irilint: error: a.txt: fixes not written: file changed on disk since it was read" in err
    assert hint(err) == ["another program changed the file while irilint ran: run irilint again"]
    assert f.read_text(encoding="utf-8") == "edited meanwhile " + BROKEN


def test_fix_when_an_editor_saves_between_the_last_check_and_the_rename(tmp_path, capsys, monkeypatch):
    """The window no stat check can close: the save is written into the
    file that the rename then replaces.  The save is put back, the fix is
    not kept, and the file is reported as changed."""
    f = tmp_path / "a.txt"
    f.write_text(BROKEN, encoding="utf-8")
    real_replace = os.replace
    saved = "the editor's save " + BROKEN

    def save_then_replace(src, dst):
        if os.path.basename(os.fspath(src)).startswith(".irilint-") and os.fspath(dst) == str(f):
            with open(dst, "r+", encoding="utf-8") as fh:  # in place, as an editor may
                fh.write(saved)
        return real_replace(src, dst)

    real_exchange = fileio._exchange

    def save_then_exchange(a, b):  # the swap that replaces the file where the system has one
        if os.path.basename(os.fspath(a)).startswith(".irilint-") and os.fspath(b) == str(f):
            with open(b, "r+", encoding="utf-8") as fh:
                fh.write(saved)
        return real_exchange(a, b)

    monkeypatch.setattr(fileio.os, "replace", save_then_replace)
    monkeypatch.setattr(fileio, "_exchange", save_then_exchange)
    code, err = run(["--fix", "a.txt"], tmp_path, capsys, monkeypatch)
    assert code == 2
    assert ("irilint: error: a.txt: fixes not written: file changed on disk while the fixes were written; "
            "the new content was kept, run again to fix it") in err
    assert hint(err) == ["run irilint again to fix the new content"]
    assert f.read_text(encoding="utf-8") == saved
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".irilint-")] == []


def test_fix_that_the_file_s_encoding_cannot_hold(tmp_path, capsys, monkeypatch):
    f = tmp_path / "a.txt"
    f.write_text(BROKEN, encoding="utf-8")

    def refuse(self, text):
        raise UnicodeEncodeError(self.encoding, text, 0, 1, "cannot hold it")

    monkeypatch.setattr(fileio.Document, "encode", refuse)
    code, err = run(["--fix", "a.txt"], tmp_path, capsys, monkeypatch)
    assert code == 2
    assert any(line.startswith("irilint: error: a.txt: fixes not written: cannot encode as UTF-8 at character 0")
               for line in err), err
    assert hint(err) == ["fix that character by hand, or save the file as UTF-8 (and change what declares "
                         "its encoding)"]


def test_fix_through_a_link_outside_the_tree(tmp_path, capsys, monkeypatch):
    (tmp_path / "outside.txt").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "d").mkdir()
    os.symlink(tmp_path / "outside.txt", tmp_path / "d" / "link.txt")
    code, err = run(["--fix", "d/link.txt"], tmp_path, capsys, monkeypatch)
    assert any(line.startswith("irilint: note: d/link.txt: fixes not written: a symbolic link leads it outside")
               for line in err), err
    assert hint(err) == ["pass --follow-symlinks to write through the link, or fix the file it points to"]


def test_broken_configuration(tmp_path, capsys, monkeypatch):
    (tmp_path / "irilint.toml").write_text('select = ["IRI4"\n', encoding="utf-8")
    (tmp_path / "a.txt").write_text(BROKEN, encoding="utf-8")
    code, err = run(["a.txt"], tmp_path, capsys, monkeypatch)
    assert code == 2
    assert any(line.startswith("irilint: error: %s: invalid TOML" % (tmp_path / "irilint.toml")) for line in err)
    assert "irilint: error: not checked because of this configuration error: a.txt" in err
    assert hint(err) == [CONFIG_ADVICE]


def test_a_rule_that_crashes(tmp_path, capsys, monkeypatch):
    from irilint.engine import Engine

    real = Engine.check_text

    def crash(self, text, **kwargs):
        result = real(self, text, **kwargs)
        result.errors.append("rule boom (IRI999) crashed: RuntimeError: boom")
        return result

    monkeypatch.setattr(Engine, "check_text", crash)
    (tmp_path / "a.txt").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "b.txt").write_text(BROKEN, encoding="utf-8")
    code, err = run(["a.txt", "b.txt"], tmp_path, capsys, monkeypatch)
    assert "irilint: internal error in a.txt: rule boom (IRI999) crashed: RuntimeError: boom" in err
    assert hint(err) == ["this is a bug in irilint: please report it with the file named above"]  # once


@pytest.mark.parametrize("args, message", [
    (["--unsafe-fixes", "."], "irilint: error: --unsafe-fixes needs --fix or --diff"),
    (["-", "a.txt"], "irilint: error: '-' (stdin) cannot be mixed with paths"),
])
def test_usage_errors_name_the_option(tmp_path, capsys, monkeypatch, args, message):
    code, err = run(args, tmp_path, capsys, monkeypatch)
    assert code == 2 and err == [message]


def test_every_advice_is_reachable_and_says_what_to_do():
    # each pattern of the table is matched by the message it was written for
    for pattern, what in ADVICE:
        assert what == "" or what[0].islower() and len(what.split()) >= 4, what
    assert advice("a.txt: everything fine") is None
