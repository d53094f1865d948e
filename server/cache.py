"""The result cache: unchanged files are not checked again.

An entry is keyed by the file's content hash, the irilint version and the
effective settings (their fingerprint, with the options that change the
output).  Entries are JSON, never pickle: a cache folder can be written by
anyone who can write to the project, and loading it must not run code.
Each entry carries a checksum of its payload; an entry that does not parse,
does not match its checksum or has the wrong shape is ignored (and the file
is checked again), never trusted.  Writes go to a temporary file and are
renamed into place, so concurrent runs never see half an entry.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from typing import Any, Dict, List, Optional, Tuple

from . import __version__
from .findings import Edit, Finding, Fix, Severity

CACHE_DIR_NAME = ".irilint_cache"
FORMAT = 1


def cache_key(content_digest: str, settings_fingerprint: str, extra: str = "") -> str:
    h = hashlib.sha256()
    for part in (str(FORMAT), __version__, content_digest, settings_fingerprint, extra):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def _finding_to_json(f: Finding) -> Dict[str, Any]:
    return {
        "rule": f.rule.name, "severity": f.severity.label, "message": f.message,
        "start": f.start, "end": f.end, "ref_start": f.ref_start, "ref_end": f.ref_end,
        "iri": f.iri,
        "fixes": [[fx.title, fx.safe, [[e.start, e.end, e.new_text] for e in fx.edits]] for fx in f.fixes],
    }


def _finding_from_json(d: Dict[str, Any], path: Optional[str]) -> Finding:
    from irilint.rules.registry import get_rule

    rule = get_rule(d["rule"])
    if rule is None:
        raise ValueError("unknown rule")
    fixes = []
    for title, safe, edits in d["fixes"]:
        if not isinstance(title, str) or not isinstance(safe, bool):
            raise ValueError("bad fix")
        fixes.append(Fix(title, tuple(Edit(int(s), int(e), str(t)) for s, e, t in edits), safe))
    for k in ("start", "end", "ref_start", "ref_end"):
        if not isinstance(d[k], int) or d[k] < 0:
            raise ValueError("bad offset")
    if not isinstance(d["message"], str) or not isinstance(d["iri"], str):
        raise ValueError("bad text")
    return Finding(rule=rule, severity=Severity.parse(d["severity"]), message=d["message"],
                   start=d["start"], end=d["end"], fixes=fixes, ref_start=d["ref_start"],
                   ref_end=d["ref_end"], iri=d["iri"], path=path)


class Cache:
    def __init__(self, root: str) -> None:
        self.dir = os.path.join(root, CACHE_DIR_NAME, "v%d" % FORMAT)
        self.hits = 0
        self.misses = 0

    def _path(self, key: str) -> str:
        return os.path.join(self.dir, key[:2], key + ".json")

    def get(self, key: str, path: Optional[str], text_length: int = 1 << 62) -> Optional[Tuple[List[Finding], Dict[str, Any], Any]]:
        """Findings, look-alike host state and located positions of a
        cached check, or None."""
        try:
            with open(self._path(key), "rb") as fh:
                raw = fh.read(64 * 1024 * 1024)
            # Line 1: the header; the rest: the payload, whose bytes the
            # header's checksum covers.
            head, _, body = raw.partition(b"\n")
            header = json.loads(head.decode("utf-8"))
            if header.get("checksum") != hashlib.sha256(body).hexdigest() or header.get("key") != key:
                raise ValueError("checksum")
            payload = json.loads(body.decode("utf-8"))
            findings = [_finding_from_json(d, path) for d in payload["findings"]]
            for f in findings:
                if f.end > text_length or f.start > f.end:
                    raise ValueError("span outside the document")
            state = payload["hosts"]
            if not isinstance(state, dict):
                raise ValueError("bad state")
            located = payload["located"]
            if not isinstance(located, list) or len(located) != len(findings):
                raise ValueError("bad positions")
            for row in located:
                if len(row) != 5 or not all(isinstance(x, int) and x >= 1 for x in row[:4]) \
                        or not isinstance(row[4], str):
                    raise ValueError("bad position")
            edits = {int(k): (int(v[0]), int(v[1])) for k, v in payload["edits"].items()}
        except (OSError, ValueError, KeyError, TypeError, UnicodeError, AttributeError, IndexError):
            self.misses += 1
            return None
        self.hits += 1
        return findings, state, (located, edits)

    def put(self, key: str, findings: List[Finding], hosts_state: Dict[str, Any],
            located: List[List[Any]], edits: Dict[int, Tuple[int, int]]) -> None:
        payload = {"findings": [_finding_to_json(f) for f in findings], "hosts": hosts_state,
                   "located": located, "edits": {str(k): list(v) for k, v in edits.items()}}
        body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        head = json.dumps({"key": key, "checksum": hashlib.sha256(body).hexdigest()}).encode("utf-8")
        target = self._path(key)
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            root = os.path.dirname(self.dir)
            marker = os.path.join(root, "CACHEDIR.TAG")
            if not os.path.exists(marker):
                with open(marker, "w", encoding="ascii") as fh:
                    fh.write("Signature: 8a477f597d28d172789f06886806bc55\n# irilint's result cache\n")
                # The cache holds the IRIs it saw: never let "git add -A"
                # commit it into the project.
                with open(os.path.join(root, ".gitignore"), "w", encoding="ascii") as fh:
                    fh.write("# created by irilint\n*\n")
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(head + b"\n" + body)
                os.replace(tmp, target)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except OSError:
            pass  # a read-only tree still gets checked, just not cached


class StatIndex:
    """File stamps -> content digests, so an unchanged file is not even
    read again.  A stamp is (size, mtime_ns, ctime_ns, inode): any write to
    a file changes its ctime, which no tool can set back, so a stale digest
    is never used.  Read by everyone, written once per run by the parent."""

    def __init__(self, cache: Cache) -> None:
        self.path = os.path.join(cache.dir, "stat-index.json")
        self.entries: Dict[str, List[Any]] = {}
        self.changed = False
        try:
            with open(self.path, "rb") as fh:
                data = json.loads(fh.read().decode("utf-8"))
            if isinstance(data, dict):
                self.entries = data
        except (OSError, ValueError, UnicodeError):
            self.entries = {}

    @staticmethod
    def stamp(st: os.stat_result) -> List[int]:
        return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]

    def digest(self, path: str, st: os.stat_result) -> Optional[str]:
        e = self.entries.get(path)
        if isinstance(e, list) and len(e) == 2 and e[0] == self.stamp(st) and isinstance(e[1], str):
            return e[1]
        return None

    def record(self, path: str, stamp: List[int], digest: str) -> None:
        old = self.entries.get(path)
        if old != [stamp, digest]:
            self.entries[path] = [stamp, digest]
            self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(self.path), prefix=".tmp-")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(self.entries, fh)
            os.replace(tmp, self.path)
        except OSError:
            pass
