"""Faults not tried by the other hardening tests, through the real command
line (``python -m irilint`` in a subprocess): a disk that fills up while
``--fix`` or the cache writes, a cache that is damaged or cannot be
written, two runs fixing the same tree at once, and an editor saving a file
while ``--fix`` writes it.

The disk-full and read-only faults come from ``tests/faults/sitecustomize.py``
on PYTHONPATH, which patches ``os.write`` / ``os.open`` in the child process
only: irilint itself runs unmodified.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Dict, Optional, Sequence, Tuple

import pytest

from cache_damage import DAMAGES, DAMAGE_IDS

FAULTS = Path(__file__).resolve().parent / "faults"
FLAGS = ["--jobs", "1", "--no-progress"]
# one finding (IRI401) that --fix repairs
BROKEN = "see http://example.org/a%zz here\n"
FIXED = "see http://example.org/a%25zz here\n"


def run(args: Sequence[str], cwd: Path, env: Optional[Dict[str, str]] = None,
        cache_root: Optional[Path] = None) -> Tuple[int, str, str]:
    e = dict(os.environ)
    e.pop("IRILINT_NO_CACHE", None)
    e["PYTHONPATH"] = os.pathsep.join([str(FAULTS)] + [p for p in e.get("PYTHONPATH", "").split(os.pathsep) if p])
    if cache_root is not None:
        e["IRILINT_CACHE_ROOT"] = str(cache_root)
    e.update(env or {})
    proc = subprocess.run([sys.executable, "-m", "irilint", "check", *FLAGS, *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300, env=e)
    return proc.returncode, proc.stdout, proc.stderr


def make_tree(root: Path, n: int = 3) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (root / ("f%02d.txt" % i)).write_text("line %d\n%s" % (i, BROKEN), encoding="utf-8")
    (root / "clean.md").write_text("[ok](https://example.org/ok)\n", encoding="utf-8")


def notes(err: str):
    return [line for line in err.splitlines() if line.startswith("irilint: note:")]


# -- the disk fills up ---------------------------------------------------------


def test_disk_full_while_fix_writes_keeps_the_original_and_exits_2(tmp_path):
    make_tree(tmp_path, 1)
    before = (tmp_path / "f00.txt").read_bytes()
    code, out, err = run(["--no-cache", "--fix", "."], tmp_path, {"IRILINT_FAULT_ENOSPC": ".irilint-*"})
    assert code == 2
    assert "irilint: error: f00.txt: fixes not written: no space left on device " \
           "(free some space and run again)" in err.splitlines()
    assert (tmp_path / "f00.txt").read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".irilint-")] == []
    assert "f00.txt:2:" in out  # the finding is still reported


def test_disk_full_while_the_cache_is_written_keeps_the_old_cache(tmp_path):
    tree, cache_root = tmp_path / "tree", tmp_path / "cache"
    make_tree(tree)
    first = run(["."], tree, cache_root=cache_root)
    pack = cache_root / ".irilint_cache" / "v3" / "results.pack"
    old_pack = pack.read_bytes()
    (tree / "f00.txt").write_text("changed\n" + BROKEN, encoding="utf-8")  # a new entry to save
    code, out, err = run(["."], tree, {"IRILINT_FAULT_ENOSPC": ".tmp-*"}, cache_root=cache_root)
    expected = run(["--no-cache", "."], tree)
    assert (code, out) == expected[:2]
    assert first[0] == code == 1
    assert len(notes(err)) == 1
    assert str(pack) in notes(err)[0] and "no space left on device" in notes(err)[0]
    assert "--no-cache" in notes(err)[0]
    # the old pack is intact and still used, and no temporary is left
    assert pack.read_bytes() == old_pack
    assert [p.name for p in pack.parent.iterdir() if p.name.startswith(".tmp-")] == []
    again = run(["."], tree, cache_root=cache_root)
    assert again[:2] == expected[:2] and notes(again[2]) == []


# -- the cache is damaged or cannot be written --------------------------------


@pytest.mark.parametrize("damage", DAMAGES, ids=DAMAGE_IDS)
@pytest.mark.parametrize("name", ["results.pack", "stat-index"])
def test_a_damaged_cache_file_is_ignored_with_one_note(tmp_path, damage, name):
    tree, cache_root = tmp_path / "tree", tmp_path / "cache"
    make_tree(tree)
    if name == "stat-index":
        time.sleep(2.1)  # stamps this close to a run's start are not recorded (racy)
    run(["."], tree, cache_root=cache_root)
    target = cache_root / ".irilint_cache" / "v3" / name
    assert target.is_file()
    damage(target)
    code, out, err = run(["."], tree, cache_root=cache_root)
    assert (code, out) == run(["--no-cache", "."], tree)[:2]
    assert len(notes(err)) == 1, err
    note = notes(err)[0]
    assert str(target) in note and "the run went on without it" in note
    assert "delete %s" % (cache_root / ".irilint_cache") in note


def test_a_read_only_cache_folder_is_reported_once_and_the_run_goes_on(tmp_path):
    tree, cache_root = tmp_path / "tree", tmp_path / "cache"
    make_tree(tree)
    run(["."], tree, cache_root=cache_root)
    (tree / "f01.txt").write_text("new\n" + BROKEN, encoding="utf-8")
    folder = cache_root / ".irilint_cache" / "v3"
    code, out, err = run(["."], tree, {"IRILINT_FAULT_READONLY": str(folder)}, cache_root=cache_root)
    assert (code, out) == run(["--no-cache", "."], tree)[:2]
    assert len(notes(err)) == 1, err
    assert "cannot be written (permission denied)" in notes(err)[0] and str(folder) in notes(err)[0]


# -- a file that keeps changing -------------------------------------------------


def test_a_file_that_keeps_changing_while_read_is_an_error_with_its_hint(tmp_path):
    make_tree(tmp_path, 2)
    (tmp_path / "growing.log").write_text(BROKEN, encoding="utf-8")
    code, out, err = run(["--no-cache", "."], tmp_path, {"IRILINT_FAULT_GROWING": "growing.log"})
    assert code == 2
    lines = err.splitlines()
    assert "irilint: error: growing.log: file keeps changing while being read" in lines
    assert "irilint: hint: run irilint again once the program writing the file is done" in lines
    # the hint comes after the errors, and the other files are still checked
    assert lines.index("irilint: hint: run irilint again once the program writing the file is done") > \
        lines.index("irilint: error: growing.log: file keeps changing while being read")
    assert "f00.txt:2:" in out and "f01.txt:2:" in out
    assert "growing.log:" not in out


# -- two writers ---------------------------------------------------------------


def test_two_fix_runs_at_once_lose_no_edit_and_leave_no_half_file(tmp_path):
    make_tree(tmp_path, 40)
    env = dict(os.environ, IRILINT_NO_CACHE="1")
    cmd = [sys.executable, "-m", "irilint", "check", "--no-cache", "--jobs", "1", "--no-progress", "--fix", "."]
    procs = [subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for _ in range(2)]
    results = [p.communicate(timeout=300) + (p.returncode,) for p in procs]
    for i in range(40):
        assert (tmp_path / ("f%02d.txt" % i)).read_text(encoding="utf-8") == "line %d\n%s" % (i, FIXED)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".irilint-")] == []
    for out, err, code in results:
        # each file is either fixed by this run, already fixed when it read
        # it, or reported as changed by the other run
        for line in err.splitlines():
            if line.startswith("irilint: error:"):
                assert "changed on disk" in line, line
        assert code in (0, 1, 2)


def test_fix_while_an_editor_saves_never_loses_the_editor_s_text(tmp_path):
    """An editor rewrites the file in place, again and again, while
    ``--fix`` runs on it: at the end the file holds the editor's last text
    or that text fixed, never an older version or a mixture."""
    path = tmp_path / "doc.txt"
    path.write_text("v0 " + BROKEN, encoding="utf-8")
    stop = threading.Event()
    last = ["v0 " + BROKEN]

    def editor():
        n = 0
        while not stop.is_set():
            n += 1
            text = "v%d %s" % (n, BROKEN) + "x" * (n % 7) + "\n"
            fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
            os.write(fd, text.encode("utf-8"))
            os.close(fd)
            last[0] = text
            time.sleep(0.002)

    t = threading.Thread(target=editor)
    t.start()
    try:
        seen = []
        for _ in range(8):
            code, _out, err = run(["--no-cache", "--fix", "doc.txt"], tmp_path)
            seen.append(code)
            for line in err.splitlines():
                if line.startswith("irilint: error:"):
                    assert "doc.txt" in line and "changed on disk" in line, line
    finally:
        stop.set()
        t.join()
    final = path.read_text(encoding="utf-8")
    assert final in (last[0], last[0].replace("%zz", "%25zz")), (final, last[0])
