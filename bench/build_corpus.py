#!/usr/bin/env python3
"""Build the benchmark and false-positive corpus from documentation packages.

The corpus is real multilingual documentation: translated man pages, the
Debian Reference and the Debian Administrator's Handbook in many languages
(HTML), and the gettext catalogs (``.po``) and reStructuredText of Django
and Sphinx, in dozens of languages including Arabic, Hebrew, Persian,
Japanese, Chinese, Korean, Russian, Greek and Hindi.  It is never
committed: this script rebuilds it, and records what it used (package names
and versions, file counts and bytes) in ``MANIFEST.json``.

    python bench/build_corpus.py                 # into bench/corpus (~400 MB)
    python bench/build_corpus.py --out DIR --small   # ~40 MB, for a quick look

Debian packages are fetched with ``apt-get download`` (no root needed for
that, but ``apt-get update`` must have run) and unpacked with ``dpkg-deb``;
Python packages with ``pip download``.  Compressed man pages are
decompressed, so the corpus is plain text.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

DEBIAN_SMALL = [
    "manpages-de", "manpages-fr", "manpages-ja", "manpages-ru", "manpages-zh", "manpages-uk",
    "debian-reference-ja", "debian-reference-zh-cn",
]
DEBIAN_FULL = DEBIAN_SMALL + [
    "manpages-pl", "debian-reference-de", "debian-reference-fr", "debian-reference-es",
    "debian-reference-it", "debian-reference-pt", "debian-reference-zh-tw",
    "debian-handbook", "maint-guide-ja", "harden-doc", "python3-django",
    # more translated man pages (Latin, Cyrillic, Greek and Vietnamese scripts)
    "manpages-es", "manpages-it", "manpages-nl", "manpages-pt-br", "manpages-fi",
    "manpages-hu", "manpages-cs", "manpages-da", "manpages-mk", "manpages-sr",
    "manpages-sv", "manpages-vi", "manpages-ro", "manpages-nb", "manpages-el",
    "manpages-tr", "manpages-id",
    # large HTML/text manuals
    "python3.11-doc", "sphinx-doc", "git-doc", "debian-reference-en", "debian-faq",
    "developers-reference", "maint-guide", "maint-guide-es", "maint-guide-fr", "maint-guide-it",
]
PYPI = ["Django==5.2.*", "Sphinx==8.*",
        # gettext catalogs (.po) in many languages
        "wagtail==8.*", "django-allauth==65.*", "weblate-language-data"]

# What counts as documentation text in an unpacked package.
DOC_SUFFIXES = {".html", ".htm", ".xhtml", ".txt", ".rst", ".md", ".po", ".json", ".xml", ".svg", ".js", ".py"}


def run(cmd, cwd=None):
    print("+", " ".join(cmd), file=sys.stderr)
    return subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, text=True).stdout


def deb_version(deb: Path) -> str:
    return run(["dpkg-deb", "-f", str(deb), "Version"]).strip()


def collect(src: Path, dest: Path, stats: dict) -> None:
    for root, _dirs, files in os.walk(src):
        for name in files:
            p = Path(root) / name
            if p.is_symlink() or not p.is_file():
                continue
            rel = p.relative_to(src)
            target = dest / rel
            data = None
            if name.endswith(".gz") and "/man" in str(p):
                # man pages: roff source, decompressed
                try:
                    data = gzip.decompress(p.read_bytes())
                except OSError:
                    continue
                target = target.with_suffix("")  # drop .gz
                target = target.with_name(target.name + ".man")
            elif p.suffix.lower() in DOC_SUFFIXES:
                data = p.read_bytes()
            if data is None:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            stats["files"] += 1
            stats["bytes"] += len(data)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(Path(__file__).parent / "corpus"))
    ap.add_argument("--small", action="store_true", help="a ~40 MB subset")
    args = ap.parse_args()
    out = Path(args.out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    manifest = {"debian": {}, "pypi": {}, "files": 0, "bytes": 0}
    stats = {"files": 0, "bytes": 0}
    with tempfile.TemporaryDirectory() as tmp:
        tmp_p = Path(tmp)
        for pkg in DEBIAN_SMALL if args.small else DEBIAN_FULL:
            try:
                run(["apt-get", "download", pkg], cwd=tmp)
            except subprocess.CalledProcessError as exc:
                print("skipping %s: %s" % (pkg, exc.stderr.strip()[:200]), file=sys.stderr)
                continue
            deb = next(tmp_p.glob(pkg + "_*.deb"))
            unpack = tmp_p / ("x-" + pkg)
            run(["dpkg-deb", "-x", str(deb), str(unpack)])
            before = stats["bytes"]
            collect(unpack, out / "debian" / pkg, stats)
            manifest["debian"][pkg] = {"version": deb_version(deb), "bytes": stats["bytes"] - before}
            shutil.rmtree(unpack)
            deb.unlink()
        if not args.small:
            wheels = tmp_p / "wheels"
            run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(wheels)] + PYPI)
            # wheels, and source archives for projects that publish no wheel
            for whl in sorted(list(wheels.glob("*.whl")) + list(wheels.glob("*.tar.gz"))):
                base = whl.name[:-len(".tar.gz")] if whl.name.endswith(".tar.gz") else whl.name
                name, version = base.split("-")[:2]
                name = name.lower().replace("_", "-")
                unpack = tmp_p / ("w-" + name)
                if whl.name.endswith(".whl"):
                    with zipfile.ZipFile(whl) as z:
                        z.extractall(unpack)
                else:
                    with tarfile.open(whl) as t:
                        if hasattr(tarfile, "data_filter"):
                            t.extractall(unpack, filter="data")
                        else:
                            t.extractall(unpack)
                before = stats["bytes"]
                collect(unpack, out / "pypi" / name, stats)
                manifest["pypi"][name] = {"version": version, "bytes": stats["bytes"] - before}
                shutil.rmtree(unpack)
    manifest.update(stats)
    (out / "MANIFEST.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    print("corpus: %d files, %.1f MB in %s" % (stats["files"], stats["bytes"] / 1e6, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
