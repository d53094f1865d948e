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

    def get(self, key: str, path: Optional[str], text_length: int) -> Optional[Tuple[List[Finding], Dict[str, Any]]]:
        """Findings and look-alike host state of a cached check, or None."""
        try:
            with open(self._path(key), "rb") as fh:
                raw = fh.read(64 * 1024 * 1024)
            entry = json.loads(raw.decode("utf-8"))
            payload = entry["payload"]
            digest = hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()
            if entry.get("checksum") != digest or entry.get("key") != key:
                raise ValueError("checksum")
            findings = [_finding_from_json(d, path) for d in payload["findings"]]
            for f in findings:
                if f.end > text_length or f.start > f.end:
                    raise ValueError("span outside the document")
            state = payload["hosts"]
            if not isinstance(state, dict):
                raise ValueError("bad state")
        except (OSError, ValueError, KeyError, TypeError, UnicodeError, AttributeError):
            self.misses += 1
            return None
        self.hits += 1
        return findings, state

    def put(self, key: str, findings: List[Finding], hosts_state: Dict[str, Any]) -> None:
        payload = {"findings": [_finding_to_json(f) for f in findings], "hosts": hosts_state}
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False)
        entry = {"key": key, "checksum": hashlib.sha256(text.encode("utf-8")).hexdigest(), "payload": payload}
        target = self._path(key)
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            marker = os.path.join(os.path.dirname(self.dir), "CACHEDIR.TAG")
            if not os.path.exists(marker):
                with open(marker, "w", encoding="ascii") as fh:
                    fh.write("Signature: 8a477f597d28d172789f06886806bc55\n# irilint's result cache\n")
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".tmp-")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    json.dump(entry, fh, ensure_ascii=False)
                os.replace(tmp, target)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except OSError:
            pass  # a read-only tree still gets checked, just not cached
