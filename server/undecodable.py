"""Files whose bytes cannot be decoded, in the result cache: the reason is
told again while the bytes stay, and a warm run neither reads such a file
nor imports the scanners that say how to decode it."""
from __future__ import annotations

import os
from typing import Any, Optional


def remember_error(checker: Any, out: Any, path: str, exc: Any, st: Optional[os.stat_result]) -> Any:
    """``out`` (the FileResult of the file at ``path`` that ``exc``, a
    DocumentError, kept from being checked) with the cache entry that
    tells it again (irilint.cache.Cache.error_entry), when ``exc`` is a
    decoding error.  The bytes are read again and kept only when they
    still fail the same way: the entry's key is the digest of the very
    bytes that gave the reason."""
    if exc.kind != "decode" or checker.cache is None or checker.options.fix or checker.options.diff:
        return out
    import hashlib

    from irilint.fileio import DocumentError, decode_bytes
    from irilint.project_files import size_cap
    from irilint.scanners import declaration_syntax

    try:
        settings = checker.settings(path)
        with open(path, "rb") as fh:
            data = fh.read()
            stamp = checker.stat_index.stamp(os.fstat(fh.fileno()))
        cap = size_cap(settings)
        if cap and len(data) > cap:
            return out
        decode_bytes(data, path, digest=False, syntax=declaration_syntax(path, settings))
        return out  # decodable now: changed since it was read
    except DocumentError as again:
        if again.kind != "decode" or again.reason != exc.reason:
            return out
    except (OSError, checker.config.ConfigError):
        return out
    digest = hashlib.sha256(data).hexdigest()
    out.cache_line = checker.cache.error_entry(checker.cache_key(digest, settings, out.path), path, exc.reason)
    if st is not None and checker.stat_index.stamp(st) == stamp:
        out.stamp = (stamp, digest)  # the stat index: not even read next time
        out.abspath = path  # (where the stat index records it)
    return out


def error_hit(result_type: Any, checker: Any, path: str, reason: str, st: os.stat_result,
              hashed: Optional[str], abspath: Optional[str] = None) -> Any:
    """The result (a ``result_type``: irilint.project.FileResult) of a
    cached decoding error (Cache.get gave ``reason``) of the file shown as
    ``path`` and read at ``abspath``, as check_path gives it; ``hashed``:
    the digest of the file's bytes when they were read to find its entry."""
    out = result_type(path, error="%s: %s" % (path, reason))
    if hashed is not None:
        out.stamp = (checker.stat_index.stamp(st), hashed)
        out.abspath = abspath  # (where the stat index records it)
    return out
