"""--jobs gives the same output in the same order; the cache is safe."""
import json
import os
import subprocess
import sys

import pytest

CYRILLIC_PAYPAL = "\u0440\u0430\u0443\u0440\u0430l.com"  # раураl.com


@pytest.fixture
def tree(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("[x](http://%s/login)\n" % CYRILLIC_PAYPAL, encoding="utf-8")
    for i in range(12):
        (docs / ("n%02d.md" % i)).write_text(
            "see http://e.org/%d/100%% and http://e.org/x%%E2%%80%%AE%d\n" % (i, i), encoding="utf-8")
    (docs / "z.md").write_text("[pay](https://paypal.com/)\n", encoding="utf-8")
    return tmp_path


def run_cli(cwd, *args, env_extra=None):
    env = dict(os.environ)
    env.pop("IRILINT_NO_CACHE", None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "irilint", "check", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_jobs_output_is_identical_and_ordered(tree):
    one = run_cli(tree, "docs", "--jobs", "1", "--no-cache")
    two = run_cli(tree, "docs", "--jobs", "2", "--no-cache")
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout
    lines = one.stdout.splitlines()
    assert [l.split(":")[0] for l in lines] == sorted(l.split(":")[0] for l in lines)
    # the collision across files is found in both modes, once, on the
    # host that is not ASCII (a.md), naming the other file
    collisions = [l for l in lines if "confusable-collision" in l]
    assert len(collisions) == 1
    assert collisions[0].startswith(os.path.join("docs", "a.md")) and "z.md" in collisions[0]


def test_cache_hits_and_same_output(tree):
    cold = run_cli(tree, "docs", "--jobs", "1", "--format", "json")
    assert (tree / ".irilint_cache").is_dir()
    assert (tree / ".irilint_cache" / ".gitignore").read_text(encoding="ascii").splitlines()[-1] == "*"
    assert len(pack_lines(tree)) == 14  # one entry per file, in one file
    warm = run_cli(tree, "docs", "--jobs", "1", "--format", "json")
    assert json.loads(cold.stdout) == json.loads(warm.stdout)
    # a changed file is checked again
    (tree / "docs" / "n00.md").write_text("fine http://e.org/\n", encoding="utf-8")
    again = run_cli(tree, "docs", "--jobs", "1", "--format", "json")
    assert not [d for d in json.loads(again.stdout) if d["path"].endswith("n00.md")]


def pack_path(tree):
    (pack,) = (tree / ".irilint_cache").glob("v*/results.pack")
    return pack


def pack_lines(tree):
    """The entries of the result cache (the first line is its header)."""
    return pack_path(tree).read_bytes().split(b"\n")[1:-1]


def _with_checksum(body):
    """A pack whose header matches ``body`` (as irilint writes it)."""
    import hashlib

    return b"irilint result cache 3 " + hashlib.sha256(body).hexdigest().encode() + b"\n" + body


def test_corrupt_or_tampered_cache_is_ignored(tree):
    cold = run_cli(tree, "docs", "--jobs", "1")
    pack = pack_path(tree)
    header, body = pack.read_bytes().split(b"\n", 1)
    assert header == _with_checksum(body).split(b"\n", 1)[0]
    lines = body.split(b"\n")
    with_findings = [i for i, line in enumerate(lines) if b'"findings": [{' in line]
    assert len(with_findings) >= 2
    garbled, tampered = with_findings[:2]
    # Findings hidden: the pack no longer matches its checksum and is not
    # read at all (the findings come back).
    key, name, payload = lines[tampered].split(b"\t", 2)
    hidden = json.loads(payload)
    hidden["findings"] = []
    lines[tampered] = b"\t".join((key, name, json.dumps(hidden).encode()))
    pack.write_bytes(header + b"\n" + b"\n".join(lines))
    assert run_cli(tree, "docs", "--jobs", "1").stdout == cold.stdout
    # Under a matching checksum, a line that does not parse is ignored (its
    # file checked again), the others used.
    header, body = pack.read_bytes().split(b"\n", 1)
    lines = body.split(b"\n")
    lines[garbled] = lines[garbled][:100] + b"\x00not json"
    pack.write_bytes(_with_checksum(b"\n".join(lines)))
    assert run_cli(tree, "docs", "--jobs", "1").stdout == cold.stdout
    # A pack with another header (another format) is not read at all.
    pack.write_bytes(b"irilint result cache 999\n" + b"\n".join(lines))
    assert run_cli(tree, "docs", "--jobs", "1").stdout == cold.stdout


def test_cache_entries_made_by_workers_are_saved_and_used(tree):
    cold = run_cli(tree, "docs", "--jobs", "2", "--format", "json")
    assert len(pack_lines(tree)) == 14
    warm = run_cli(tree, "docs", "--jobs", "2", "--format", "json")
    assert json.loads(warm.stdout) == json.loads(cold.stdout)
    # Partly warm: the parent answers the cached files, workers the others.
    (tree / "docs" / "n03.md").write_text("now http://e.org/%ZZ\n", encoding="utf-8")
    partly = run_cli(tree, "docs", "--jobs", "2", "--format", "json")
    fresh = run_cli(tree, "docs", "--jobs", "1", "--format", "json", "--no-cache")
    assert json.loads(partly.stdout) == json.loads(fresh.stdout) != json.loads(cold.stdout)
    # A run on part of the tree keeps the entries of the other files.
    (tree / "docs" / "n00.md").write_text("fine http://e.org/\n", encoding="utf-8")
    run_cli(tree, os.path.join("docs", "n00.md"), "--jobs", "1")
    lines = pack_lines(tree)
    assert len(lines) == 14
    assert sum(b"n00.md" in line for line in lines) == 1  # the old entry was replaced


def test_no_cache_writes_nothing(tree):
    run_cli(tree, "docs", "--no-cache")
    assert not (tree / ".irilint_cache").exists()


def test_same_size_rewrite_with_old_mtime_is_checked_again(tree):
    """The stat index must never serve a stale digest: a rewrite that keeps
    the size and puts the old mtime back still changes the ctime."""
    f = tree / "docs" / "n01.md"
    run_cli(tree, "docs", "--jobs", "1")
    st = os.stat(f)
    text = f.read_text(encoding="utf-8").replace("100%", "100 ")  # same length, fixed
    f.write_text(text, encoding="utf-8")
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(f).st_size == st.st_size and os.stat(f).st_mtime_ns == st.st_mtime_ns
    again = run_cli(tree, "docs", "--jobs", "1", "--format", "json")
    n01 = [d for d in json.loads(again.stdout) if d["path"].endswith("n01.md")]
    assert not [d for d in n01 if d["name"] == "bad-percent-encoding"]
