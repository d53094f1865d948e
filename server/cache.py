"""The result cache: unchanged files are not checked again.

An entry is keyed by the file's content hash, the irilint version and the
effective settings (their fingerprint, with the options that change the
output).  Entries are JSON, never pickle: a cache folder can be written by
anyone who can write to the project, and loading it must not run code.

All entries live in one file, ``results.pack``, one line each: opening,
reading and checksumming a file per source file was most of a warm run.
The header line holds the SHA-256 of everything after it (one pass over the
pack, where a checksum per line cost more than the whole pass): a pack that
does not match it, or has another header, is not read at all.  A line is
``key TAB file TAB payload``; a line that does not split, does not match its
key, or whose payload has the wrong shape is ignored (and the file is
checked again), never trusted.
The pack is written once per run, by the process that prints the output,
to a temporary file renamed into place: concurrent runs never see half a
pack (the last one to finish wins; the other's new entries are just
computed again next time).

One module, over 600 lines: the pack, its entries' payload and the
indexes beside it (stat, listings, reductions) share one format number,
one checksummed way of writing a file, and one rule that what cannot be
read is a miss; apart, each would repeat them.
"""
from __future__ import annotations

import hashlib
import io
import itertools
import json
import os
import sys
import time
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

from . import __version__
from .declared_encoding import DECODING_RULES
from .fileio import _os_reason, written_temporary
from .findings import Edit, Finding, Fix, Related, Severity
from irilint.rules.project_rules import decode_facts, encode_facts

CACHE_DIR_NAME = ".irilint_cache"
FORMAT = 3
PACK_NAME = "results.pack"
_PACK_HEADER = b"irilint result cache %d " % FORMAT
_decode_json = json.JSONDecoder().raw_decode
_FS_ENCODING = sys.getfilesystemencoding()
_FS_ERRORS = sys.getfilesystemencodeerrors()
#: a pack larger than this is not read (it is rewritten with this run's entries)
MAX_PACK_BYTES = 1 << 30


_CODE_FINGERPRINT: Optional[str] = None


def fingerprint_of(folders: List[str]) -> str:
    """The path, size and modification time of every ``.py`` file under
    ``folders``, hashed."""
    h = hashlib.sha256()
    for folder in sorted(folders):
        for root, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                path = os.path.join(root, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                h.update(("%s\0%d\0%d\0" % (path, st.st_size, st.st_mtime_ns)).encode(
                    "utf-8", "surrogateescape"))
    return h.hexdigest()


def code_fingerprint() -> str:
    """:func:`fingerprint_of` irilint's modules and its rules': a checkout
    or an install whose code changed while its version did not (a
    development version, an upgrade from a branch) must not reuse results
    its old rules gave.  Stats, not contents: ~70 files cost well under a
    millisecond, and a reinstall costs one cold run."""
    global _CODE_FINGERPRINT
    if _CODE_FINGERPRINT is None:
        import irilint.rules

        _CODE_FINGERPRINT = fingerprint_of(sorted({os.path.dirname(os.path.abspath(__file__)),
                                                   os.path.dirname(os.path.abspath(irilint.rules.__file__))}))
    return _CODE_FINGERPRINT


def key_hasher(settings_fingerprint: str) -> Any:
    """The SHA-256 state after a key's parts that depend on the settings
    alone (format, version, the code's fingerprint, settings): made once
    per settings, copied for each file."""
    # The rules that turn a file's bytes into text are part of the key: the
    # same bytes read by other rules (a declared encoding now honoured) are
    # another text, with other findings and offsets.
    text = "%d\0%s\0%s\0%d\0%s\0" % (FORMAT, __version__, code_fingerprint(), DECODING_RULES,
                                       settings_fingerprint)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass"))


def cache_key(hasher: Any, content_digest: str, extra: str = "") -> str:
    """The key of a file's entry: the hash of the format, the irilint
    version and the settings' fingerprint (``hasher``, from
    :func:`key_hasher`; not changed), then the content's digest and
    ``extra`` (the path the file is reported under)."""
    h = hasher.copy()
    h.update(("%s\0%s\0" % (content_digest, extra)).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _finding_to_json(f: Finding) -> Dict[str, Any]:
    out = {
        "rule": f.rule.name, "severity": f.severity.label, "message": f.message,
        "start": f.start, "end": f.end, "ref_start": f.ref_start, "ref_end": f.ref_end,
        "iri": f.iri,
        "fixes": [[fx.title, fx.safe, [[e.start, e.end, e.new_text] for e in fx.edits]] for fx in f.fixes],
    }
    if f.related:  # few findings have any: the others' entries stay as they were
        out["related"] = [[r.message, r.line, r.column, r.end_line, r.end_column, r.path, r.start, r.end]
                          for r in f.related]
    return out


def _finding_from_json(d: Dict[str, Any], path: Optional[str], get_rule: Any,
                       shared: Optional[Dict[Any, Any]] = None) -> Finding:
    """A finding :func:`_finding_to_json` made (``get_rule``: the
    registry's, given by the caller that reads many).  ``shared``: a memo
    of the texts read so far, so that the findings of one entry share
    their messages, titles, IRIs and offsets as the engine's did (a parsed
    string or number is a new object each time: a dense file's hit held a
    copy per finding)."""
    rule = get_rule(d["rule"])
    if rule is None:
        raise ValueError("unknown rule")
    # A warm run reads thousands of findings: the memo's setdefault is
    # called as it is (no function around it), and the checks inlined.
    share = _same if shared is None else shared.setdefault
    fixes = []
    for title, safe, edits in d["fixes"]:
        if not isinstance(title, str) or not isinstance(safe, bool):
            raise ValueError("bad fix")
        made = []
        for edit_start, edit_end, new_text in edits:
            edit_start, edit_end, new_text = int(edit_start), int(edit_end), str(new_text)
            made.append(Edit(share(edit_start, edit_start), share(edit_end, edit_end), share(new_text, new_text)))
        fixes.append(Fix(share(title, title), tuple(made), safe))
    start, end, ref_start, ref_end = d["start"], d["end"], d["ref_start"], d["ref_end"]
    if not (isinstance(start, int) and isinstance(end, int) and isinstance(ref_start, int)
            and isinstance(ref_end, int)) or start < 0 or end < 0 or ref_start < 0 or ref_end < 0:
        raise ValueError("bad offset")
    message, iri = d["message"], d["iri"]
    if not isinstance(message, str) or not isinstance(iri, str):
        raise ValueError("bad text")
    related = []
    for message_, line, column, end_line, end_column, where, r_start, r_end in d.get("related", ()):
        if not isinstance(message_, str) or not (where is None or isinstance(where, str)) or not all(
                isinstance(n, int) for n in (line, column, end_line, end_column, r_start, r_end)):
            raise ValueError("bad related location")
        related.append(Related(message_, line, column, end_line, end_column, where, r_start, r_end))
    severity = _SEVERITY_BY_LABEL.get(d["severity"]) or Severity.parse(d["severity"])
    return Finding(rule, severity, share(message, message), share(start, start), share(end, end), fixes,
                   share(ref_start, ref_start), share(ref_end, ref_end), share(iri, iri), path, related)


def _same(value: Any, _default: Any) -> Any:
    return value


#: the labels a finding's severity is written as (Severity.parse reads any other spelling)
_SEVERITY_BY_LABEL = {s.label: s for s in Severity}


#: findings (or positions) of a cache entry encoded at once
_ITEMS_A_WRITE = 256


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def _write_items(write: Callable[[bytes], Any], items: Iterable[Any]) -> None:
    """Write a JSON array of ``items``, as ``json.dumps`` writes it, a few
    hundred items at a time."""
    write(b"[")
    items = iter(items)
    first = True
    while True:
        chunk = list(itertools.islice(items, _ITEMS_A_WRITE))
        if not chunk:
            break
        text = _dumps(chunk)[1:-1]  # "[a, b]" -> "a, b"
        write(text if first else b", " + text)
        first = False
    write(b"]")


def _after_bytes(data: bytes, at: int, literal: bytes) -> int:
    """Where ``literal`` ends, when ``data`` has it at ``at``."""
    if not data.startswith(literal, at):
        raise ValueError("not the payload irilint writes")
    return at + len(literal)


def _find(data: bytes, literal: bytes, at: int) -> int:
    found = data.find(literal, at)
    if found == -1:
        raise ValueError("not the payload irilint writes")
    return found


#: the largest entry payload read with one parse (a few MB of findings:
#: its parse is a few times that, for a moment); larger ones, of files
#: dense with findings, are read a few hundred items at a time
_WHOLE_PAYLOAD_BYTES = 1 << 22


def _json_value(text: str) -> Any:
    """The one JSON value ``text`` is (no whitespace around it)."""
    value, end = _decode_json(text)
    if end != len(text):
        raise ValueError("trailing data")
    return value


def _escaped(data: bytes, at: int) -> bool:
    """Whether the character at ``at`` follows an odd run of backslashes
    (a quote escaped inside a string)."""
    run = at
    while run > 0 and data[run - 1] == 0x5C:
        run -= 1
    return (at - run) % 2 == 1


def _each_item_in(data: bytes, start: int, end: int, boundary: bytes, keep: int,
                  take: Callable[[Any], None]) -> None:
    """Pass each item of the JSON array whose items (", " between them, as
    ``json.dumps`` writes them) are ``data[start:end]`` to ``take``,
    decoding a few hundred items' bytes at a time.  ``boundary`` stands
    only between two items (its first ``keep`` bytes end the one before),
    once a quote it starts with is not an escaped one."""
    view = memoryview(data)
    at = start
    while at < end:
        cut = at
        for _ in range(_ITEMS_A_WRITE):
            found = data.find(boundary, cut + 1, end)
            while found != -1 and boundary[:1] == b'"' and _escaped(data, found):
                found = data.find(boundary, found + 1, end)
            if found == -1:
                cut = end
                break
            cut = found + keep
        text = str(view[at:cut], "utf-8")
        pos = 0
        while True:
            item, pos = _decode_json(text, pos)
            take(item)
            if pos == len(text):
                break
            if not text.startswith(", ", pos):
                raise ValueError("not the payload irilint writes")
            pos += 2
        if cut < end:
            at = _after_bytes(data, cut, b", ")
        else:
            at = end


class Cache:
    def __init__(self, root: str) -> None:
        self.dir = os.path.join(root, CACHE_DIR_NAME, "v%d" % FORMAT)
        self.pack_path = os.path.join(self.dir, PACK_NAME)
        self.hits = 0
        self.misses = 0
        #: key -> the pack line, read on first use
        self._lines: Optional[Dict[str, bytes]] = None
        #: key -> (file, line) of entries made in this run, to be saved
        self._new: Dict[str, Tuple[str, bytes]] = {}
        #: payload -> its project rules' facts, for the entries without
        #: findings read so far
        self._quiet: Dict[bytes, Dict[str, Any]] = {}
        #: the first thing that kept the cache from being read or written,
        #: as a note for stderr (None: all went well); the run goes on
        #: without the cache either way
        self.problem: Optional[str] = None

    def note_problem(self, path: str, what: str) -> None:
        """Keep the first problem met (one note per run is enough: the
        others have the same cause and the same cure)."""
        if self.problem is None:
            self.problem = ("cache %s: %s; the run went on without it (delete %s to start a fresh cache, "
                            "or use --no-cache)" % (path, what, os.path.dirname(self.dir)))

    def _pack(self) -> Dict[str, bytes]:
        if self._lines is None:
            self._lines = {}
            read = _read_checked_whole(self.pack_path, _PACK_HEADER, b"\n", self.note_problem)
            if read is not None:
                # Only the key is read now; a line is checked when used.
                # (The head line is the first the whole file splits into.)
                lines = read[0].split(b"\n")
                del lines[0]
                self._lines = {line[:64].decode("ascii", "replace"): line for line in lines if line}
        return self._lines

    def empty(self) -> bool:
        """Whether there is no entry at all (a cold run need not hash files
        just to miss)."""
        if self._lines:  # asked once per file: the common answer first
            return False
        return not self._new and not self._pack()

    def get(self, key: str, path: Optional[str],
            text_length: int = 1 << 62) -> Optional[Tuple[List[Finding], Dict[str, Any], Any]]:
        """Findings, the project rules' facts (rule name ->
        irilint.rules.project_rules.Collected; shared between hits, never
        to be changed) and located positions of a cached check, or None.
        Facts of another version than their rule's are a miss.  The entry
        of a file that cannot be decoded (:meth:`error_entry`) gives
        (None, why, None)."""
        new = self._new.get(key)
        if new is not None:
            line = new[1]
        else:
            line = (self._lines if self._lines is not None else self._pack()).get(key)
        # Lines are found by their first 64 bytes (``key`` is 64 hex
        # digits): the line is the key's when a tab follows them, and it
        # has a file field ending at a tab (searched for, not split: a
        # split copies the payload).
        end = line.find(b"\t", 65) if line is not None and line[64:65] == b"\t" else -1
        if end == -1:
            self.misses += 1
            return None
        if not line.startswith(b'{"findings": []', end + 1):
            if line.startswith(b'{"error": ', end + 1):
                return self._get_error(line[end + 1:])
            return self._get_findings(line, end + 1, path, text_length)
        body = line[end + 1:]
        facts = self._quiet.get(body)
        if facts is not None:
            self.hits += 1
            return [], facts, ([], {})
        try:
            text = body.decode("utf-8")
            payload, end = _decode_json(text)  # no whitespace scan: irilint wrote it
            if end != len(text):
                raise ValueError("trailing data")
            if payload["findings"]:
                raise ValueError("findings where there were none")
            facts = decode_facts(payload["facts"])
            # most files: nothing found, nothing to locate
            if payload["located"] != [] or payload["edits"] != {}:
                raise ValueError("positions without findings")
        except (ValueError, KeyError, TypeError, UnicodeError, AttributeError, IndexError):
            self.misses += 1
            return None
        # Such a payload does not depend on the file's path: many files
        # share one, and it is parsed once.
        self._quiet[body] = facts
        self.hits += 1
        return [], facts, ([], {})

    def _get_error(self, body: bytes) -> Optional[Tuple[None, str, None]]:
        """:meth:`get` of an entry made by :meth:`error_entry`: (None, the
        reason, None)."""
        try:
            payload = _json_value(body.decode("utf-8"))
            reason = payload["error"]
            if len(payload) != 1 or not isinstance(reason, str) or not reason:
                raise ValueError("not the payload irilint writes")
        except (ValueError, KeyError, TypeError, UnicodeError, AttributeError, IndexError):
            self.misses += 1
            return None
        self.hits += 1
        return None, reason, None

    @staticmethod
    def error_entry(key: str, file: str, reason: str) -> bytes:
        """The pack line of a file whose bytes cannot be decoded (as its
        settings and path say to read them): the reason, told again while
        those bytes stay (a warm run then reads no such file, and imports
        no scanner to learn how)."""
        return b"%s\t%s\t%s" % (key.encode("ascii"), json.dumps(file).encode("ascii"),
                                 _dumps({"error": reason}))

    def _get_findings(self, line: bytes, at: int, path: Optional[str],
                      text_length: int) -> Optional[Tuple[List[Finding], Dict[str, Any], Any]]:
        """:meth:`get` of an entry with findings (its payload from ``at``):
        parsed whole up to _WHOLE_PAYLOAD_BYTES, else read a finding at a
        time (a dense file's whole parsed payload was several times the
        size of its findings)."""
        # (a rule by its catalogue entry: printing a hit needs no rule module)
        from irilint.rules.registry import registered_rule as get_rule

        findings: List[Finding] = []
        located: List[Any] = []
        shared: Dict[Any, Any] = {}
        share = shared.setdefault
        try:
            def take_finding(d: Any) -> None:
                f = _finding_from_json(d, path, get_rule, shared)
                if f.end > text_length or f.start > f.end:
                    raise ValueError("span outside the document")
                findings.append(f)

            def take_row(row: Any) -> None:
                if type(row) is not list or len(row) != 5:
                    raise ValueError("bad position")
                line, column, end_line, end_column, text = row
                if not (isinstance(line, int) and isinstance(column, int) and isinstance(end_line, int)
                        and isinstance(end_column, int) and isinstance(text, str)) or (
                        line < 1 or column < 1 or end_line < 1 or end_column < 1):
                    raise ValueError("bad position")
                located.append([share(line, line), share(column, column), share(end_line, end_line),
                                share(end_column, end_column), share(text, text)])

            data = memoryview(line)
            if len(line) - at <= _WHOLE_PAYLOAD_BYTES:
                # One parse of the payload costs less than the walk through
                # its parts, and a small one's memory does not matter.
                payload = _json_value(str(data[at:], "utf-8"))
                for d in payload["findings"]:
                    take_finding(d)
                for row in payload["located"]:
                    take_row(row)
                return self._found(findings, located, payload["facts"], payload["edits"], share)
            # The payload's parts are found by the keys that follow them
            # (a quote JSON does not escape is no string's content), its
            # arrays decoded a few hundred items at a time: a dense file's
            # whole payload as text was twice its bytes (two bytes a
            # character once one is outside Latin-1).
            at = _after_bytes(line, at, b'{"findings": [')
            end = _find(line, b'], "facts": ', at)
            _each_item_in(line, at, end, b'}, {"rule": "', 1, take_finding)
            at = end + len(b'], "facts": ')
            end = _find(line, b', "located": [', at)
            facts_json = _json_value(str(data[at:end], "utf-8"))
            at = end + len(b', "located": [')
            end = _find(line, b'], "edits": ', at)
            _each_item_in(line, at, end, b'"], [', 2, take_row)
            at = end + len(b'], "edits": ')
            if not line.endswith(b"}") or len(line) - 1 < at:
                raise ValueError("not the payload irilint writes")
            edits_json = _json_value(str(data[at:len(line) - 1], "utf-8"))
            return self._found(findings, located, facts_json, edits_json, share)
        except (ValueError, KeyError, TypeError, UnicodeError, AttributeError, IndexError):
            self.misses += 1
            return None

    def _found(self, findings: List[Finding], located: List[Any], facts_json: Any, edits_json: Any,
               share: Callable[[Any, Any], Any]) -> Tuple[List[Finding], Dict[str, Any], Any]:
        """The hit :meth:`_get_findings` read (raises ValueError and the
        like when its parts do not fit together)."""
        if not findings or len(located) != len(findings):
            raise ValueError("bad positions")
        facts = decode_facts(facts_json)
        edits = {}
        for k, v in edits_json.items():
            offset, position = int(k), (int(v[0]), int(v[1]))
            edits[share(offset, offset)] = share(position, position)
        self.hits += 1
        return findings, facts, (located, edits)

    @staticmethod
    def entry(key: str, file: str, findings: List[Finding], facts: Dict[str, Any],
              located: Iterable[List[Any]], edits: Dict[int, Tuple[int, int]]) -> bytes:
        """The pack line of one checked file (worker processes send it to
        the parent, which saves every line of the run at once).  ``facts``:
        what its project rules collected (rule name ->
        irilint.rules.project_rules.Collected); ``located``: each finding's
        [line, column, end line, end column, line text], read once."""
        # Written a finding at a time: the same bytes as json.dumps of the
        # whole payload (a dict of "findings", "facts", "located" and
        # "edits"), without that payload or its whole text at once.
        out = io.BytesIO()
        write = out.write
        # JSON escapes tabs and line breaks, so neither field can hold one.
        write(b"%s\t%s\t{\"findings\": " % (key.encode("ascii"), json.dumps(file).encode("ascii")))
        _write_items(write, map(_finding_to_json, findings))
        write(b', "facts": ')
        write(_dumps(encode_facts(facts)))
        write(b', "located": ')
        _write_items(write, located)
        write(b', "edits": ')
        write(_dumps({str(k): list(v) for k, v in edits.items()}))
        write(b"}")
        return out.getvalue()

    def add(self, line: bytes) -> None:
        """Keep a line made by :meth:`entry` for :meth:`save`."""
        # The two tabs found, not split at: a split copies the payload.
        first = line.find(b"\t")
        second = line.find(b"\t", first + 1) if first != -1 else -1
        if second != -1:
            self._new[line[:first].decode("ascii", "replace")] = (
                line[first + 1:second].decode("ascii", "replace"), line)

    def save(self) -> None:
        """Write the pack: this run's entries, and the earlier entries of
        files this run did not check again."""
        if not self._new:
            return
        renewed = {name for name, _ in self._new.values()}
        lines = []
        for key, line in self._pack().items():
            if key in self._new:
                continue
            fields = line.split(b"\t", 2)
            if len(fields) != 3 or fields[1].decode("ascii", "replace") in renewed:
                continue  # unreadable, or an older version of a file checked now
            lines.append(line)
        lines.extend(line for _, line in self._new.values())
        # Each line and its line end, not joined: written as they are.
        _write_checked(self.pack_path, _PACK_HEADER, b"\n", [part for line in lines for part in (line, b"\n")],
                       self.note_problem)


#: Called with (path, what went wrong) when a cache file exists but cannot
#: be used, or cannot be written.
Report = Callable[[str, str], None]


def _ignore(path: str, what: str) -> None:
    pass


def _read_checked(path: str, header: bytes, separator: bytes, report: Report = _ignore) -> Optional[bytes]:
    """The body of a file written by :func:`_write_checked`, or None when it
    is missing, too large, of another format or fails its checksum (all
    but a missing file are told to ``report``)."""
    read = _read_checked_whole(path, header, separator, report)
    return None if read is None else read[0][read[1]:]


def _read_checked_whole(path: str, header: bytes, separator: bytes,
                        report: Report = _ignore) -> Optional[Tuple[bytes, int]]:
    """:func:`_read_checked` as (the whole file, where its body starts):
    the body is checked where it lies, not copied (the pack is megabytes,
    and its lines are cut from the whole file)."""
    try:
        with open(path, "rb") as fh:
            # Asked for its size (and one byte more, which shows growth):
            # read(MAX_PACK_BYTES + 1) set aside a gigabyte, ~10 ms a file.
            want = min(os.fstat(fh.fileno()).st_size, MAX_PACK_BYTES) + 1
            raw = fh.read(want)
            if len(raw) == want:
                raw += fh.read(MAX_PACK_BYTES + 1 - len(raw))
    except FileNotFoundError:
        return None  # a cold run
    except OSError as exc:
        report(path, "cannot be read (%s)" % _os_reason(exc))
        return None
    # (as raw.partition(separator) cuts it, the body not copied)
    end = raw.find(separator)
    end, at = (len(raw), len(raw)) if end == -1 else (end, end + len(separator))
    if (len(raw) <= MAX_PACK_BYTES and raw.startswith(header)
            and raw[len(header):end] == hashlib.sha256(memoryview(raw)[at:]).hexdigest().encode("ascii")):
        return raw, at
    report(path, "is damaged (truncated, corrupted or too large) and was ignored")
    return None


def _write_checked(path: str, header: bytes, separator: bytes, body: Any, report: Report = _ignore) -> None:
    """Write ``body`` (bytes, or a list of the parts it is made of, not
    joined: a pack of dense files is large) after a head line of
    ``header`` and its SHA-256."""
    parts: List[bytes] = [body] if isinstance(body, bytes) else body
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    head = header + digest.hexdigest().encode("ascii")
    try:
        _write_replace(path, [head + separator], parts)
    except OSError as exc:
        # a read-only tree still gets checked, just not cached; the old
        # file, if any, is untouched (the new one was never renamed in)
        report(path, "cannot be written (%s)" % _os_reason(exc))


def _write_replace(path: str, *data: Sequence[bytes]) -> None:
    """Write the parts of ``data`` (lists of bytes) to a temporary file
    renamed over ``path`` (concurrent runs never see half a file; the last
    one to finish wins), creating the cache folder, its CACHEDIR.TAG and
    .gitignore first if needed.  Raises OSError; a temporary file is never
    left behind."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    root = os.path.dirname(folder)
    marker = os.path.join(root, "CACHEDIR.TAG")
    if not os.path.exists(marker):
        with open(marker, "w", encoding="ascii") as fh:
            fh.write("Signature: 8a477f597d28d172789f06886806bc55\n# irilint's result cache\n")
        # The cache holds the IRIs it saw: never let "git add -A"
        # commit it into the project.
        with open(os.path.join(root, ".gitignore"), "w", encoding="ascii") as fh:
            fh.write("# created by irilint\n*\n")
    # not synced to the disk: a cache lost in a crash is only a slower run
    with written_temporary(folder, ".tmp-", (part for parts in data for part in parts), fsync=False) as tmp:
        os.replace(tmp, path)


class _StampedIndex:
    """A file of ``key NUL value`` records about things with stat stamps,
    read on first use and written once per run by the parent (renamed into
    place).  No key or value holds a NUL, so one ``split`` parses it (a
    JSON object of lists was ~0.1 s to parse, and 47,000 containers for the
    garbage collector).  The head line holds the SHA-256 of the rest: a
    corrupt index is ignored.

    Timestamps are coarse (a kernel tick, or worse on some filesystems), so
    a thing changed again within the tick it was looked at in can keep its
    stamp: like git's "racily clean" entries, a stamp whose mtime or ctime
    is within ``RACY_NS`` of the run's start is not recorded, and that
    thing is looked at again next time."""

    NAME = ""
    HEADER = b""
    #: a stamp this close to the run's start may not see the next change
    RACY_NS = 2 * 10 ** 9

    def __init__(self, cache: Cache, started_ns: Optional[int] = None) -> None:
        self.path = os.path.join(cache.dir, self.NAME)
        self._report = cache.note_problem
        self.started_ns = time.time_ns() if started_ns is None else started_ns
        self._entries: Optional[Dict[bytes, bytes]] = None
        self._new: Dict[bytes, bytes] = {}

    def _load(self) -> Dict[bytes, bytes]:
        if self._entries is None:
            self._entries = {}
            body = _read_checked(self.path, self.HEADER, b"\0", self._report)
            if body is not None:
                parts = body.split(b"\0")
                if len(parts) % 2 == 0:
                    self._entries = dict(zip(parts[0::2], parts[1::2]))
        return self._entries

    def _racy(self, mtime_ns: int, ctime_ns: int) -> bool:
        return max(mtime_ns, ctime_ns) >= self.started_ns - self.RACY_NS

    def _put(self, key: bytes, value: bytes) -> None:
        if self._load().get(key) != value:
            self._new[key] = value

    def save(self) -> None:
        if not self._new:
            return
        entries = dict(self._load())
        entries.update(self._new)
        _write_checked(self.path, self.HEADER, b"\0",
                       b"\0".join(itertools.chain.from_iterable(entries.items())), self._report)
        self._entries = entries  # what a look-up after the save finds (the run's key: irilint.run_memo)
        self._new.clear()


class StatIndex(_StampedIndex):
    """File stamps -> content digests, so an unchanged file is not even
    read again.

    A stamp is (size, mtime_ns, ctime_ns, inode): any write to a file
    changes its ctime, which no tool can set back.  A record is ``path NUL
    size mtime ctime inode digest``; racy stamps are not recorded (see
    :class:`_StampedIndex`), and such a file is read and hashed again next
    time.  A binary file (``fileio.binary_offset``: a verdict on its bytes
    alone) is recorded with :data:`BINARY` for a digest: a walk then skips
    it unread, as a cold run skips it after reading it, while its stamp
    holds (a tenth of the files of the bench corpus).
    """

    NAME = "stat-index"
    HEADER = b"irilint stat index 1 "
    #: the digest recorded for a binary file
    BINARY = "binary"

    @staticmethod
    def stamp(st: os.stat_result) -> Tuple[int, int, int, int]:
        return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)

    def digest(self, path: str, st: os.stat_result) -> Optional[str]:
        """The digest recorded for ``path`` if its stamp is still ``st``'s."""
        entries = self._entries if self._entries is not None else self._load()
        value = entries.get(path.encode(_FS_ENCODING, _FS_ERRORS))  # os.fsencode, inlined
        if value is None:
            return None
        stamp, _, digest = value.rpartition(b" ")
        if stamp != b"%d %d %d %d" % (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino):
            return None
        if len(digest) != 64 and digest != b"binary":
            return None
        return digest.decode("ascii", "replace")

    def record(self, path: str, stamp: Tuple[int, int, int, int], digest: str) -> None:
        """Remember ``path``'s digest (``stamp`` as :meth:`stamp` gives it;
        :data:`BINARY` for a binary file), unless the stamp is racy."""
        size, mtime_ns, ctime_ns, ino = stamp
        if self._racy(mtime_ns, ctime_ns):
            return
        self._put(os.fsencode(path), b"%d %d %d %d %s" % (size, mtime_ns, ctime_ns, ino, digest.encode("ascii")))


class ListingIndex(_StampedIndex):
    """Directory stamps -> their entries, so an unchanged directory is not
    listed again (the walk's listings were a tenth of a warm run).

    Adding, removing or renaming an entry changes the directory's mtime and
    ctime, and nothing can set its ctime back: while both are as recorded,
    so are its entry names, and which of them are symbolic links (a link
    is changed by replacing it).  What the entries are now (file or
    folder, their own stamps) is still asked of each, every run.  A
    directory is known by its device and inode, whatever path leads to it.
    A record is ``dev ino NUL mtime ctime // names // links``, the names
    sorted and joined by ``/`` (which no name holds, and no name is empty).
    Only on POSIX systems, where a directory's ctime is its change time
    (Windows gives the creation time) and its inode is known.
    """

    NAME = "listings"
    HEADER = b"irilint listing index 1 "
    USABLE = os.name == "posix"

    def get(self, st: os.stat_result) -> Optional[Tuple[List[str], FrozenSet[str]]]:
        """The sorted entry names and symlink names of the directory whose
        stat is ``st``, as recorded, if its stamp is unchanged."""
        if not st.st_ino or not self.USABLE:
            return None
        entries = self._entries if self._entries is not None else self._load()
        value = entries.get(b"%d %d" % (st.st_dev, st.st_ino))
        if value is None:
            return None
        parts = value.split(b"//")
        if len(parts) != 3 or parts[0] != b"%d %d" % (st.st_mtime_ns, st.st_ctime_ns):
            return None
        names = parts[1].decode(_FS_ENCODING, _FS_ERRORS).split("/") if parts[1] else []
        links = frozenset(parts[2].decode(_FS_ENCODING, _FS_ERRORS).split("/")) if parts[2] else frozenset()
        return names, links

    def put(self, st: os.stat_result, names: List[str], links: FrozenSet[str]) -> None:
        """Remember a directory's listing (``names`` sorted), unless its
        stamp is racy."""
        if not st.st_ino or not self.USABLE or self._racy(st.st_mtime_ns, st.st_ctime_ns):
            return
        value = b"%d %d//%s//%s" % (st.st_mtime_ns, st.st_ctime_ns,
                                    "/".join(names).encode(_FS_ENCODING, _FS_ERRORS),
                                    "/".join(sorted(links)).encode(_FS_ENCODING, _FS_ERRORS))
        self._put(b"%d %d" % (st.st_dev, st.st_ino), value)


class ReductionMemo:
    """The project rules' findings across the files of a run, remembered
    by a digest of what they were reduced from: the cache key of each file
    with facts, in file order (the key holds the file's content, the path
    its findings name, the settings, the code and the irilint version, and
    the facts are a function of them).  An unchanged tree then skips the
    reduction; any changed, added, removed or reordered file with facts
    gives another digest, and the reduction is done again.

    A few runs' results are kept (``KEEP``, most recent last): runs of
    different paths in one project do not push each other out.  The file
    is ``key TAB JSON`` lines after a checksummed head line; an entry of
    another shape is a miss, never trusted."""

    NAME = "reductions"
    HEADER = b"irilint reductions 1 "
    KEEP = 8

    def __init__(self, cache: Cache) -> None:
        self.path = os.path.join(cache.dir, self.NAME)
        self._report = cache.note_problem
        self._entries: Optional[Dict[str, bytes]] = None
        self._changed = False

    @staticmethod
    def key(cache_keys: Sequence[str]) -> str:
        """The digest of the cache keys of the files with facts, in file
        order (a file's key holds the path its findings name)."""
        return hashlib.sha256(("%d\0%s" % (FORMAT, "\0".join(cache_keys))).encode("ascii")).hexdigest()

    def _load(self) -> Dict[str, bytes]:
        if self._entries is None:
            self._entries = {}
            body = _read_checked(self.path, self.HEADER, b"\n", self._report)
            if body is not None:
                for line in body.split(b"\n"):
                    key, tab, value = line.partition(b"\t")
                    if tab:
                        self._entries[key.decode("ascii", "replace")] = value
        return self._entries

    def get(self, key: str, paths: Sequence[Optional[str]]) -> Optional[Dict[int, List[Any]]]:
        """The reduction remembered under ``key`` (document index ->
        ProjectFindings, as :func:`~irilint.rules.project_rules.reduce_documents`
        gives it), its findings naming ``paths`` (the documents' paths,
        in order); None when unknown or unreadable."""
        from irilint.rules.project_rules import Place, ProjectFinding
        from irilint.rules.registry import registered_rule as get_rule

        value = self._load().get(key)
        if value is None:
            return None
        try:
            rows = json.loads(value.decode("utf-8"))
            if not isinstance(rows, list):
                raise ValueError("bad reduction")
            out: Dict[int, List[Any]] = {}
            for n, finding, place in rows:
                if type(n) is not int or not 0 <= n < len(paths):
                    raise ValueError("bad document index")
                f = _finding_from_json(finding, paths[n], get_rule)
                out.setdefault(n, []).append(ProjectFinding(n, f, Place.from_json(place)))
        except (ValueError, KeyError, TypeError, UnicodeError, AttributeError, IndexError):
            return None
        return out

    def put(self, key: str, found: Dict[int, List[Any]]) -> None:
        """Remember a reduction (what :meth:`get` gives back)."""
        rows = [[n, _finding_to_json(pf.finding), pf.place.to_json()]
                for n in sorted(found) for pf in found[n]]
        value = json.dumps(rows, ensure_ascii=False).encode("utf-8")
        entries = self._load()
        if entries.get(key) == value:
            return
        entries.pop(key, None)  # most recent last
        entries[key] = value
        while len(entries) > self.KEEP:
            del entries[next(iter(entries))]
        self._changed = True

    def save(self) -> None:
        if not self._changed or self._entries is None:
            return
        body = b"\n".join(b"%s\t%s" % (k.encode("ascii"), v) for k, v in self._entries.items())
        _write_checked(self.path, self.HEADER, b"\n", body, self._report)
        self._changed = False
