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
    # the collision across files is found in both modes, on the later file
    z = [l for l in lines if l.startswith(os.path.join("docs", "z.md"))]
    assert any("confusable-collision" in l and "a.md" in l for l in z)


def test_cache_hits_and_same_output(tree):
    cold = run_cli(tree, "docs", "--jobs", "1", "--format", "json")
    assert (tree / ".irilint_cache").is_dir()
    assert (tree / ".irilint_cache" / ".gitignore").read_text(encoding="ascii").splitlines()[-1] == "*"
    entries = list((tree / ".irilint_cache").glob("v*/??/*.json"))
    assert len(entries) == 14
    warm = run_cli(tree, "docs", "--jobs", "1", "--format", "json")
    assert json.loads(cold.stdout) == json.loads(warm.stdout)
    # a changed file is checked again
    (tree / "docs" / "n00.md").write_text("fine http://e.org/\n", encoding="utf-8")
    again = run_cli(tree, "docs", "--jobs", "1", "--format", "json")
    assert not [d for d in json.loads(again.stdout) if d["path"].endswith("n00.md")]


def test_corrupt_or_tampered_cache_is_ignored(tree):
    cold = run_cli(tree, "docs", "--jobs", "1")
    entries = sorted((tree / ".irilint_cache").glob("v*/??/*.json"))
    entries[0].write_bytes(b"\x00not json")
    head, body = entries[1].read_text(encoding="utf-8").split("\n", 1)
    payload = json.loads(body)
    payload["findings"] = []  # hide everything: the checksum no longer matches
    entries[1].write_text(head + "\n" + json.dumps(payload), encoding="utf-8")
    warm = run_cli(tree, "docs", "--jobs", "1")
    assert warm.stdout == cold.stdout


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
