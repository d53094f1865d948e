#!/usr/bin/env python3
"""Check real third-party projects and write their findings for reading by eye.

Issue 15 asks for findings a reviewer can trust.  This script downloads the
pinned projects of ``bench/real_projects.toml`` (code and documentation in
many human languages) from their package registries, unpacks them into
``bench/real-corpus/NAME/`` (git-ignored; nothing downloaded is committed),
runs ``irilint check --no-cache --format json`` on each one twice -- with
the default rules and with ``--select bidi,lookalike`` -- and writes

* ``bench/real-corpus/findings.md``: every finding grouped by rule, with
  project, path:line:column, the message, the reference as the scanner saw
  it and the source line clipped around the finding;
* ``bench/real-corpus/findings.json``: the same, machine-readable, with the
  manifest (versions, licences) and the counts;

and prints per-project and per-rule counts.

    python bench/real_projects.py                  # fetch what is missing, check all
    python bench/real_projects.py --only django,faker
    python bench/real_projects.py --no-fetch       # check what is already there
    python bench/real_projects.py --fetch-only

Re-running skips the projects already unpacked at their pinned version (a
``.fetched`` file in each folder records it).  Downloads use only the
ordinary clients: ``pip download``, ``apt-get download`` + ``dpkg-deb -x``
and ``npm pack``.
"""
from __future__ import annotations

import argparse
import fnmatch
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

BENCH = Path(__file__).resolve().parent
MANIFEST = BENCH / "real_projects.toml"
CORPUS = BENCH / "real-corpus"
FETCHED_MARK = ".fetched"
SOURCES = ("pypi", "debian", "npm")
KINDS = ("code", "docs", "code+docs")
SELECTIONS = {"default": [], "bidi,lookalike": ["--select", "bidi,lookalike"]}
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_EOL_RE = re.compile(r"\r\n|\r|\n")
#: Characters of source line shown on each side of a finding.
CLIP = 80


class ManifestError(ValueError):
    """The manifest is wrong: the message names the file and the entry."""


class FetchError(RuntimeError):
    """A download or unpacking failed: the message says which and why."""


@dataclass(frozen=True)
class Project:
    name: str
    source: str
    package: str
    version: str
    license: str
    kind: str
    languages: Tuple[str, ...]
    skip: Tuple[str, ...] = ()


# ---------------------------------------------------------------------------
# Manifest

def parse_manifest(text: str, origin: str = "<manifest>") -> List[Project]:
    """The projects of a manifest's TOML text; :class:`ManifestError` naming
    ``origin`` and the entry for anything missing, mistyped or repeated."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{origin}: not valid TOML: {exc}") from None
    unknown_top = set(data) - {"project"}
    if unknown_top:
        raise ManifestError(f"{origin}: unknown top-level key(s): {', '.join(sorted(unknown_top))}")
    entries = data.get("project")
    if not isinstance(entries, list) or not entries:
        raise ManifestError(f"{origin}: no [[project]] entries")
    projects: List[Project] = []
    seen = set()
    for index, entry in enumerate(entries, 1):
        where = f"{origin}: project #{index}"
        if not isinstance(entry, dict):
            raise ManifestError(f"{where}: not a table")
        unknown = set(entry) - {f for f in Project.__dataclass_fields__}
        if unknown:
            raise ManifestError(f"{where}: unknown key(s): {', '.join(sorted(unknown))}")
        values: Dict[str, Any] = {}
        for key in ("name", "source", "package", "version", "license", "kind"):
            value = entry.get(key)
            if not isinstance(value, str) or not value.strip():
                raise ManifestError(f"{where}: {key!r} must be a non-empty string")
            values[key] = value.strip()
        where = f"{origin}: project {values['name']!r}"
        if not _NAME_RE.match(values["name"]):
            raise ManifestError(f"{where}: name may only have letters, digits, '-', '_' and '.'")
        if values["name"] in seen:
            raise ManifestError(f"{where}: listed twice")
        seen.add(values["name"])
        if values["source"] not in SOURCES:
            raise ManifestError(f"{where}: source must be one of {', '.join(SOURCES)}, not {values['source']!r}")
        if values["kind"] not in KINDS:
            raise ManifestError(f"{where}: kind must be one of {', '.join(KINDS)}, not {values['kind']!r}")
        if any(ch in values["version"] for ch in "*<>=!~ ,"):
            raise ManifestError(f"{where}: version {values['version']!r} must be one exact version")
        for key in ("languages", "skip"):
            value = entry.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
                raise ManifestError(f"{where}: {key!r} must be a list of non-empty strings")
            values[key] = tuple(value)
        if not values["languages"]:
            raise ManifestError(f"{where}: 'languages' must name at least one language")
        for glob in values["skip"]:
            if glob.startswith("/") or ".." in Path(glob).parts:
                raise ManifestError(f"{where}: skip glob {glob!r} must stay inside the project folder")
        projects.append(Project(**values))
    return projects


def load_manifest(path: Path = MANIFEST) -> List[Project]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ManifestError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return parse_manifest(text, str(path))


# ---------------------------------------------------------------------------
# Fetching

def _run(cmd: Sequence[str], cwd: Optional[Path] = None) -> str:
    print("+", " ".join(cmd), file=sys.stderr)
    proc = subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise FetchError(f"{' '.join(cmd)} failed (exit {proc.returncode}): {proc.stderr.strip()[-2000:]}")
    return proc.stdout


def _only_file(directory: Path, what: str) -> Path:
    files = [p for p in directory.iterdir() if p.is_file()]
    if len(files) != 1:
        raise FetchError(f"{directory}: expected one downloaded {what}, found {[p.name for p in files]}")
    return files[0]


def _safe_members(tar: tarfile.TarFile) -> List[tarfile.TarInfo]:
    """Regular files and directories that stay inside the target folder."""
    members = []
    for member in tar.getmembers():
        parts = Path(member.name).parts
        if member.name.startswith("/") or ".." in parts:
            raise FetchError(f"{tar.name}: archive member {member.name!r} would land outside its folder")
        if member.isfile() or member.isdir():
            members.append(member)
    return members


def _unpack_archive(archive: Path, dest: Path) -> None:
    name = archive.name
    if name.endswith((".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar")):
        with tarfile.open(archive) as tar:
            tar.extractall(dest, members=_safe_members(tar))
    elif name.endswith(".zip"):
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                if info.filename.startswith("/") or ".." in Path(info.filename).parts:
                    raise FetchError(f"{archive}: archive member {info.filename!r} would land outside its folder")
            zf.extractall(dest)
    else:
        raise FetchError(f"{archive}: unknown archive type")


def _gunzip_man_pages(root: Path) -> int:
    """Man pages ship gzipped; the scanners read text, so unzip them in place
    (``foo.1.gz`` -> ``foo.1``).  Returns how many."""
    count = 0
    for path in sorted(root.rglob("*.gz")):
        if path.is_symlink() or not path.is_file() or "/man/" not in path.as_posix():
            continue
        target = path.with_suffix("")
        with gzip.open(path, "rb") as src, open(target, "wb") as out:
            shutil.copyfileobj(src, out)
        path.unlink()
        count += 1
    return count


def _remove_symlinks(root: Path) -> None:
    # Debian packages link into /usr/share/javascript and the like; a link
    # out of the corpus must not be followed by the walk.
    for path in list(root.rglob("*")):
        if path.is_symlink():
            path.unlink()


def apply_skips(root: Path, globs: Iterable[str]) -> List[str]:
    """Remove the files under ``root`` matching any glob (relative POSIX
    paths, ``fnmatch`` syntax); returns the removed paths, sorted."""
    globs = list(globs)
    removed = []
    if not globs:
        return removed
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        if any(fnmatch.fnmatchcase(rel, g) for g in globs):
            path.unlink()
            removed.append(rel)
    return removed


def fetched_version(folder: Path) -> Optional[str]:
    try:
        return json.loads((folder / FETCHED_MARK).read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError, AttributeError):
        return None


def fetch(project: Project, corpus: Path = CORPUS) -> Path:
    """Download and unpack one project into ``corpus/NAME`` unless it is
    already there at its pinned version.  Returns the folder."""
    folder = corpus / project.name
    if fetched_version(folder) == project.version:
        return folder
    if folder.exists():
        shutil.rmtree(folder)
    corpus.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".fetch-{project.name}-", dir=corpus) as tmp:
        tmp_path = Path(tmp)
        download = tmp_path / "download"
        unpacked = tmp_path / "unpacked"
        download.mkdir()
        unpacked.mkdir()
        if project.source == "pypi":
            _run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                  "--disable-pip-version-check", "-q",
                  "-d", str(download), f"{project.package}=={project.version}"])
            archive = _only_file(download, "sdist")
            _unpack_archive(archive, unpacked)
        elif project.source == "debian":
            _run(["apt-get", "download", f"{project.package}={project.version}"], cwd=download)
            deb = _only_file(download, ".deb")
            got = _run(["dpkg-deb", "-f", str(deb), "Version"]).strip()
            if got != project.version:
                raise FetchError(f"{deb}: version {got}, manifest pins {project.version}")
            _run(["dpkg-deb", "-x", str(deb), str(unpacked)])
            _remove_symlinks(unpacked)  # before unzipping: a page may link to another
            _gunzip_man_pages(unpacked)
        else:
            _run(["npm", "pack", "--silent", f"{project.package}@{project.version}"], cwd=download)
            _unpack_archive(_only_file(download, "npm tarball"), unpacked)
        _remove_symlinks(unpacked)
        removed = apply_skips(unpacked, project.skip)
        (unpacked / FETCHED_MARK).write_text(json.dumps(
            {"version": project.version, "source": project.source, "package": project.package,
             "skipped": removed}, indent=1), encoding="utf-8")
        unpacked.rename(folder)
    return folder


# ---------------------------------------------------------------------------
# Checking

@dataclass
class Finding:
    project: str
    selection: str  # "default" or "bidi,lookalike"
    path: str  # relative to the project folder
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    name: str
    severity: str
    message: str
    iri: str
    context: str = ""  # the source line clipped around the finding


@dataclass
class ProjectRun:
    project: str
    selection: str
    files_bytes: int
    seconds: float
    findings: List[Finding] = field(default_factory=list)
    not_checked: List[Dict[str, str]] = field(default_factory=list)  # kind error/skipped entries


def irilint_command() -> List[str]:
    exe = shutil.which("irilint", path=str(Path(sys.executable).parent)) or shutil.which("irilint")
    return [exe] if exe else [sys.executable, "-m", "irilint"]


def _empty_config(corpus: Path) -> Path:
    # One explicit, empty configuration: the default rules, whatever
    # pyproject.toml or .irilint.toml a downloaded project (or this
    # repository, above the corpus) may hold.
    path = corpus / ".irilint-defaults.toml"
    if not path.exists():
        path.write_text("# the default settings, for bench/real_projects.py\n", encoding="utf-8")
    return path


def run_irilint(folder: Path, extra: Sequence[str], corpus: Path, jobs: int) -> Tuple[List[Dict[str, Any]], float]:
    cmd = irilint_command() + ["check", "--no-cache", "--format", "json", "--no-progress", "--quiet",
                               "--jobs", str(jobs), "--config", str(_empty_config(corpus)), *extra, "."]
    # The corpus is git-ignored; irilint still walks all of a directory named
    # on its command line that git ignores as a whole (discovery._root_view).
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    # 1: findings; 2: also files it could not read (listed in the JSON).
    if proc.returncode not in (0, 1, 2) or not proc.stdout.strip():
        raise RuntimeError(f"{folder}: {' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    try:
        return json.loads(proc.stdout), seconds
    except ValueError as exc:
        raise RuntimeError(f"{folder}: irilint's JSON output could not be read: {exc}") from None


def split_lines(text: str) -> List[str]:
    """Lines as irilint counts them: ends are \\n, \\r\\n and \\r only."""
    return _EOL_RE.split(text)


def clip_line(line: str, column: int, end_column: int, width: int = CLIP) -> str:
    """The line around 1-based code-point columns [column, end_column), with
    ``…`` where it was cut and the finding marked by ``⟦ ⟧``; tabs and other
    controls shown as spaces or ``\\uXXXX``, so one finding stays one line."""
    start = max(column - 1, 0)
    end = max(min(end_column - 1, len(line)), start)
    if end - start > 2 * width:  # a very long finding: keep its two ends
        inside = line[start:start + width] + "…" + line[end - width:end]
    else:
        inside = line[start:end]
    left_from = max(start - width, 0)
    right_to = min(end + width, len(line))
    text = (("…" if left_from > 0 else "") + line[left_from:start] + "⟦" + inside + "⟧"
            + line[end:right_to] + ("…" if right_to < len(line) else ""))
    return "".join(_visible(ch) for ch in text)


def _visible(ch: str) -> str:
    if ch == "\t":
        return " "
    code = ord(ch)
    if code < 0x20 or code == 0x7F:
        return "\\u%04X" % code
    # Bidi controls and invisible characters are what some findings are
    # about; show them by name so the Markdown file can be read safely.
    if ch in "\u200b\u200c\u200d\u200e\u200f\u2028\u2029\u2060\ufeff" or "\u202a" <= ch <= "\u202e" \
            or "\u2066" <= ch <= "\u2069" or ch == "\u061c":
        return "<U+%04X>" % code
    return ch


class _SourceLines:
    """Lines of the files findings point at, each file decoded once as
    irilint decodes it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: Dict[str, List[str]] = {}

    def line(self, rel: str, number: int) -> str:
        lines = self._cache.get(rel)
        if lines is None:
            lines = self._read(rel)
            self._cache = {rel: lines}  # keep one file: findings come grouped by file
        return lines[number - 1] if 0 < number <= len(lines) else ""

    def _read(self, rel: str) -> List[str]:
        try:
            from irilint.fileio import read_document
            return split_lines(read_document(self.root / rel, digest=False).text)
        except Exception:  # noqa: BLE001 -- the context is only a reading aid
            try:
                return split_lines((self.root / rel).read_text(encoding="utf-8", errors="replace"))
            except OSError:
                return []


def findings_from_json(project: str, selection: str, entries: List[Dict[str, Any]],
                       root: Path) -> Tuple[List[Finding], List[Dict[str, str]]]:
    """irilint's JSON entries -> findings (with their source line) and the
    entries of files it could not check."""
    findings: List[Finding] = []
    not_checked: List[Dict[str, str]] = []
    sources = _SourceLines(root)
    for entry in entries:
        kind = entry.get("kind")
        path = str(entry.get("path", ""))
        if path.startswith("./"):
            path = path[2:]
        if kind != "finding":
            not_checked.append({"kind": str(kind), "path": path, "message": str(entry.get("message", ""))})
            continue
        finding = Finding(project=project, selection=selection, path=path, line=int(entry["line"]),
                          column=int(entry["column"]), end_line=int(entry["end_line"]),
                          end_column=int(entry["end_column"]), code=entry["code"], name=entry["name"],
                          severity=entry["severity"], message=entry["message"], iri=entry.get("iri", ""))
        line = sources.line(path, finding.line)
        end_column = finding.end_column if finding.end_line == finding.line else len(line) + 1
        finding.context = clip_line(line, finding.column, end_column)
        findings.append(finding)
    return findings, not_checked


def folder_bytes(folder: Path) -> int:
    total = 0
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        total += sum((Path(root) / f).stat().st_size for f in files if not f.startswith("."))
    return total


def check_project(project: Project, corpus: Path, jobs: int) -> List[ProjectRun]:
    folder = corpus / project.name
    size = folder_bytes(folder)
    runs = []
    for selection, extra in SELECTIONS.items():
        entries, seconds = run_irilint(folder, extra, corpus, jobs)
        findings, not_checked = findings_from_json(project.name, selection, entries, folder)
        runs.append(ProjectRun(project.name, selection, size, seconds, findings, not_checked))
    return runs


# ---------------------------------------------------------------------------
# Writing

def _md_cell(text: str) -> str:
    return "".join(_visible(ch) for ch in text).replace("|", "\\|").replace("`", "ˋ")


def finding_id(finding: Finding, index: int) -> str:
    """A short, stable label to refer to a finding while reading: rule code,
    selection and its position in the rule's list."""
    return "%s-%s%d" % (finding.code, "" if finding.selection == "default" else "bl", index)


def render_findings_md(projects: Sequence[Project], runs: Sequence[ProjectRun]) -> str:
    out: List[str] = []
    out.append("# irilint findings on real projects\n")
    out.append("Written by `python bench/real_projects.py`; read by eye for issue 15 "
               "(judgements: bench/real_projects_judged.md). Each finding: its label, "
               "project, `path:line:column`, severity, message, the reference as the scanner "
               "saw it, and the source line with the finding between ⟦ ⟧ (clipped to "
               f"{CLIP} characters each side; bidi and invisible characters shown as <U+XXXX>).\n")
    out.append("## Projects\n")
    out.append("| project | source | package | version | licence | kind | languages | files skipped |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for p in projects:
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            p.name, p.source, p.package, p.version, _md_cell(p.license), p.kind,
            _md_cell(", ".join(p.languages)), _md_cell(", ".join(p.skip)) or "-"))
    out.append("")
    for selection in SELECTIONS:
        sel_runs = [r for r in runs if r.selection == selection]
        if not sel_runs:
            continue
        findings = [f for r in sel_runs for f in r.findings]
        title = "default rules" if selection == "default" else f"--select {selection}"
        out.append(f"## {title}: {len(findings)} findings\n")
        out.append(_counts_table(sel_runs))
        by_rule: Dict[Tuple[str, str], List[Finding]] = {}
        for f in findings:
            by_rule.setdefault((f.code, f.name), []).append(f)
        for (code, name), group in sorted(by_rule.items()):
            out.append(f"### {code} {name} ({title}): {len(group)}\n")
            for index, f in enumerate(group, 1):
                out.append("- **%s** %s `%s:%d:%d` %s: %s  \n  IRI: `%s`  \n  `%s`" % (
                    finding_id(f, index), f.project, _md_cell(f.path), f.line, f.column, f.severity,
                    _md_cell(f.message), _md_cell(f.iri), _md_cell(f.context)))
            out.append("")
        not_checked = [(r.project, e) for r in sel_runs for e in r.not_checked]
        if not_checked:
            out.append(f"### Files not checked ({title}): {len(not_checked)}\n")
            reasons = Counter((project, _reason(e["message"])) for project, e in not_checked)
            for (project, reason), n in sorted(reasons.items()):
                out.append(f"- {project}: {n} × {_md_cell(reason)}")
            out.append("")
    return "\n".join(out) + "\n"


def _reason(message: str) -> str:
    # "./path: cannot decode as UTF-8 at byte 12 (...)" -> "cannot decode as UTF-8"
    reason = message.split(": ", 1)[-1]
    return re.sub(r" at byte \d+.*| \(\d[\d,]* bytes.*", "", reason)


def _counts_table(runs: Sequence[ProjectRun]) -> str:
    rules = sorted({f.code for r in runs for f in r.findings})
    lines = ["| project | MB | s | findings | not checked | " + " | ".join(rules) + " |",
             "| --- " * (5 + len(rules)) + "|"]
    totals: Counter = Counter()
    for r in runs:
        per_rule = Counter(f.code for f in r.findings)
        totals.update(per_rule)
        lines.append("| %s | %.1f | %.1f | %d | %d | %s |" % (
            r.project, r.files_bytes / 1e6, r.seconds, len(r.findings), len(r.not_checked),
            " | ".join(str(per_rule.get(c, 0)) for c in rules)))
    lines.append("| **all** | %.1f | %.1f | %d | %d | %s |" % (
        sum(r.files_bytes for r in runs) / 1e6, sum(r.seconds for r in runs),
        sum(len(r.findings) for r in runs), sum(len(r.not_checked) for r in runs),
        " | ".join(str(totals.get(c, 0)) for c in rules)))
    return "\n".join(lines) + "\n"


def render_findings_json(projects: Sequence[Project], runs: Sequence[ProjectRun]) -> str:
    data = {
        "projects": [asdict(p) for p in projects],
        "runs": [{"project": r.project, "selection": r.selection, "bytes": r.files_bytes,
                  "seconds": round(r.seconds, 2), "findings": len(r.findings),
                  "not_checked": r.not_checked} for r in runs],
        "findings": [],
    }
    for selection in SELECTIONS:
        by_rule: Dict[str, int] = Counter()
        ordered = sorted((f for r in runs if r.selection == selection for f in r.findings),
                         key=lambda f: f.code)  # stable: keeps project and file order inside a rule
        for f in ordered:
            by_rule[f.code] += 1
            data["findings"].append(dict(asdict(f), id=finding_id(f, by_rule[f.code])))
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def print_counts(runs: Sequence[ProjectRun], stream=None) -> None:
    stream = stream or sys.stdout  # looked up per call, not bound at import
    for selection in SELECTIONS:
        sel = [r for r in runs if r.selection == selection]
        if not sel:
            continue
        print(f"\n{selection} rules: findings per project", file=stream)
        for r in sel:
            print(f"  {r.project:26} {len(r.findings):6}  ({r.files_bytes / 1e6:.1f} MB, {r.seconds:.1f} s, "
                  f"{len(r.not_checked)} not checked)", file=stream)
        per_rule = Counter((f.code, f.name) for r in sel for f in r.findings)
        print(f"{selection} rules: findings per rule", file=stream)
        for (code, name), n in sorted(per_rule.items()):
            print(f"  {code} {name:28} {n:6}", file=stream)
        print(f"  {'total':35} {sum(per_rule.values()):6}", file=stream)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    ap.add_argument("--corpus", type=Path, default=CORPUS, help="where projects are unpacked (default: %(default)s)")
    ap.add_argument("--only", help="comma-separated project names")
    ap.add_argument("--no-fetch", action="store_true", help="check only what is already unpacked")
    ap.add_argument("--fetch-only", action="store_true", help="download and unpack; check nothing")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="irilint --jobs (default: all cores)")
    args = ap.parse_args(argv)
    try:
        projects = load_manifest(args.manifest)
    except ManifestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.only:
        wanted = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = sorted(set(wanted) - {p.name for p in projects})
        if unknown:
            print(f"error: --only: not in {args.manifest}: {', '.join(unknown)}", file=sys.stderr)
            return 2
        projects = [p for p in projects if p.name in wanted]
    corpus = args.corpus.resolve()
    if not args.no_fetch:
        failed = []
        for p in projects:
            try:
                fetch(p, corpus)
            except FetchError as exc:
                print(f"error: {p.name}: {exc}", file=sys.stderr)
                failed.append(p.name)
        if failed:
            print(f"error: could not fetch {', '.join(failed)}", file=sys.stderr)
            return 1
    if args.fetch_only:
        return 0
    missing = [p.name for p in projects if fetched_version(corpus / p.name) != p.version]
    if missing:
        print(f"error: not unpacked at the pinned version under {corpus}: {', '.join(missing)} "
              "(run without --no-fetch)", file=sys.stderr)
        return 1
    runs: List[ProjectRun] = []
    for p in projects:
        print(f"checking {p.name} ...", file=sys.stderr)
        runs.extend(check_project(p, corpus, args.jobs))
    (corpus / "findings.md").write_text(render_findings_md(projects, runs), encoding="utf-8")
    (corpus / "findings.json").write_text(render_findings_json(projects, runs), encoding="utf-8")
    print_counts(runs)
    print(f"\nwrote {corpus / 'findings.md'} and findings.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
