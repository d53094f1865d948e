#!/usr/bin/env python3
"""Language server benchmarks (issue 7, figure 7), with a raw JSON-RPC client
over stdio against ``irilint server``.

* ``change``: ``didChange`` -> ``publishDiagnostics`` for that version, on
  a 5,000-line Markdown file with 500 IRIs: median and p95 over 50 changes
  (``initializationOptions: {"debounce": 0}``).  The changes are range
  edits, as editors send them to a server that asks for incremental sync
  (VS Code, Neovim, Helix, Emacs' eglot and lsp-mode all do); the same
  changes sent as whole texts give a reference figure.  Targets: median
  <= 15 ms, p95 <= 30 ms.
* ``big``: the same (range edits) on a 1 MB Markdown document: median
  <= 150 ms.
* ``init``: process start to the ``initialize`` response, irilint vs a bare
  pygls server (a ``LanguageServer`` that only answers initialize), measured
  alternately in the same run: ratio <= 1.2.
* ``memory``: VmRSS of the server with 50 open documents of 100 KB each
  (after their diagnostics were published): <= 80 MB.
* ``lint``: in-process CPU time of the server's engine call per change
  (warm per-reference memo, the server's incremental Markdown scanner) on
  the ``change`` and ``big`` documents, and of a full Markdown scan alone:
  no target, a load-independent reading of the first two.
  ``change`` and ``big`` also show the server process's CPU per change.

The client answers every server request with a null result and announces
no pull diagnostics and no ``workspace/configuration``, so the server
pushes diagnostics and uses its defaults plus the initialization options.

    python bench/lsp_bench.py                    # everything
    python bench/lsp_bench.py --only change,init --changes 50 --init-runs 10
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (BenchError, bench_env, Figure, irilint_argv, loadavg, median, p95, record,  # noqa: E402
                     wait_for_quiet)

#: The yardstick: a bare pygls 2 server that publishes no diagnostics.
BARE_SERVER = Path(__file__).resolve().parent / "bare_pygls_server.py"


def bare_server_argv() -> List[str]:
    return [sys.executable, str(BARE_SERVER)]

CAPABILITIES = {
    "general": {"positionEncodings": ["utf-16"]},
    "textDocument": {
        "synchronization": {"didSave": True},
        "publishDiagnostics": {"versionSupport": True, "relatedInformation": True},
    },
    "workspace": {},
}


class LspClient:
    """A minimal LSP client over a child process's stdio."""

    def __init__(self, argv: Sequence[str], cwd: Optional[str] = None, stderr_path: Optional[str] = None):
        self._stderr = open(stderr_path or os.devnull, "wb")
        self.t_start = time.perf_counter()
        try:
            self.proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._stderr, cwd=cwd, bufsize=0, env=bench_env())
        except FileNotFoundError as exc:
            raise BenchError("cannot start %s: %s" % (argv, exc))
        self.messages: "queue.Queue[tuple]" = queue.Queue()
        self._next_id = 0
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # -- wire ------------------------------------------------------------
    def _read(self) -> None:
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        self.messages.put((time.perf_counter(), None))
                        return
                    line = line.strip()
                    if not line:
                        break
                    k, _, v = line.partition(b":")
                    if k.strip().lower() == b"content-length":
                        length = int(v.strip())
                if length is None:
                    continue
                # one buffer: appending chunks to bytes copies the whole body
                # each time, quadratic in a large publication's size
                body = bytearray(length)
                view = memoryview(body)
                got = 0
                while got < length:
                    n = out.readinto(view[got:])
                    if not n:
                        self.messages.put((time.perf_counter(), None))
                        return
                    got += n
                view.release()
                t = time.perf_counter()
                # the collector off while parsing: it would traverse a large
                # publication's dicts again and again (~8x the parse), a
                # cost of this Python client, not of the server or an editor
                gc.disable()
                try:
                    msg = json.loads(body)
                finally:
                    gc.enable()
                if "method" in msg and "id" in msg:  # a request from the server
                    self._send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
                self.messages.put((t, msg))
        except Exception as exc:  # pragma: no cover - reported by wait()
            self.messages.put((time.perf_counter(), {"__error__": repr(exc)}))

    def _send(self, msg: Dict[str, Any]) -> None:
        body = json.dumps(msg, ensure_ascii=False).encode("utf-8")
        with self._lock:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()

    def request(self, method: str, params: Any) -> int:
        self._next_id += 1
        self._send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        return self._next_id

    def notify(self, method: str, params: Any) -> float:
        t = time.perf_counter()
        self._send({"jsonrpc": "2.0", "method": method, "params": params})
        return t

    def wait(self, pred: Callable[[Dict[str, Any]], bool], timeout: float = 60.0) -> tuple:
        """The first message matching ``pred`` (others are dropped), with the
        time it was read."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BenchError("timed out after %.0f s waiting for the server" % timeout)
            try:
                t, msg = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if msg is None:
                raise BenchError("the server closed its output (exit status %s)" % self.proc.poll())
            if "__error__" in msg:
                raise BenchError("reading from the server failed: %s" % msg["__error__"])
            if pred(msg):
                return t, msg

    # -- LSP ---------------------------------------------------------------
    def initialize(self, options: Optional[Dict[str, Any]] = None, root: Optional[str] = None,
                   timeout: float = 60.0) -> float:
        """Send initialize; return seconds from process start to the response."""
        rid = self.request("initialize", {
            "processId": os.getpid(), "rootUri": Path(root).as_uri() if root else None,
            "capabilities": CAPABILITIES, "initializationOptions": options or {},
            "clientInfo": {"name": "irilint-bench"}})
        t, msg = self.wait(lambda m: m.get("id") == rid and "method" not in m, timeout)
        if "error" in msg:
            raise BenchError("initialize failed: %s" % msg["error"])
        self.notify("initialized", {})
        return t - self.t_start

    def open(self, uri: str, text: str, language: str = "markdown", version: int = 1) -> float:
        return self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language, "version": version, "text": text}})

    def change_full(self, uri: str, text: str, version: int) -> float:
        return self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]})

    def change(self, uri: str, edits: List[Dict[str, Any]], version: int) -> float:
        """An incremental didChange (``range`` + ``text`` changes)."""
        return self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": edits})

    def wait_diagnostics(self, uri: str, version: Optional[int], timeout: float = 60.0) -> tuple:
        def pred(m: Dict[str, Any]) -> bool:
            if m.get("method") != "textDocument/publishDiagnostics":
                return False
            p = m.get("params") or {}
            return p.get("uri") == uri and (version is None or p.get("version") == version)
        return self.wait(pred, timeout)

    def rss_kb(self) -> int:
        try:
            with open("/proc/%d/status" % self.proc.pid) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError as exc:
            raise BenchError("cannot read the server's memory: %s" % exc)
        raise BenchError("no VmRSS for pid %d" % self.proc.pid)

    def cpu_seconds(self) -> float:
        """User + system CPU time the server process has used so far (a
        figure the machine's load does not inflate)."""
        try:
            with open("/proc/%d/stat" % self.proc.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError as exc:
            raise BenchError("cannot read the server's CPU time: %s" % exc)
        # fields[0] is the state (field 3): utime and stime are fields 14, 15
        return (int(fields[11]) + int(fields[12])) / float(os.sysconf("SC_CLK_TCK"))

    def close(self, timeout: float = 10.0) -> None:
        try:
            if self.proc.poll() is None:
                rid = self.request("shutdown", None)
                try:
                    self.wait(lambda m: m.get("id") == rid and "method" not in m, timeout)
                except BenchError:
                    pass
                self.notify("exit", None)
        except (BrokenPipeError, OSError):
            pass
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=timeout)
        self._stderr.close()


# -- documents -----------------------------------------------------------

WORDS = ("the of and to in is for on that with as by this be are from or it an at not which "
         "server file page link document text value name section example line data option "
         "Straße über größer naïve café résumé déjà Ελληνικά Русский текст пример "
         "日本語 文章 例 中文 文档 العربية نص עברית טקסט").split()


def iri_for(i: int) -> str:
    forms = (
        "[the docs](https://example.org/docs/page-%d.html#intro)",
        "<https://пример.рф/путь/%d>",
        "see https://例え.jp/パス/%d for more",
        "http://example.com/%%E2%%82%%AC/item-%d",
        "[IDN](https://xn--bcher-kva.example/buch/%d)",
        "https://مثال.example/مسار/%d",
        "<http://résumé.example.org/ü/%d>",
        "https://github.com/example/project/issues/%d",
        "ftp://ftp.example.net/pub/file-%d.tar.gz",
        "https://example.net/search?q=%d&lang=de",
    )
    return forms[i % len(forms)] % i


def markdown_doc(lines: int, iri_every: int = 10, seed: int = 1) -> str:
    rng = random.Random(seed)
    out = []
    n_iri = 0
    for i in range(lines):
        if i % 50 == 0:
            out.append("## Section %d" % (i // 50))
        elif i % iri_every == 5:
            out.append("%s %s %s." % (" ".join(rng.choice(WORDS) for _ in range(5)), iri_for(n_iri),
                                      " ".join(rng.choice(WORDS) for _ in range(4))))
            n_iri += 1
        elif i % 50 == 49:
            out.append("")
        else:
            out.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))).capitalize() + ".")
    return "\n".join(out) + "\n"


def markdown_bytes(nbytes: int, seed: int = 1) -> str:
    """A Markdown document of about ``nbytes`` UTF-8 bytes (one IRI every 10 lines)."""
    probe = markdown_doc(1000, seed=seed)
    per_line = len(probe.encode("utf-8")) / 1000.0
    return markdown_doc(max(10, int(nbytes / per_line)), seed=seed)


def edited_lines(text_lines: List[str], k: int, v: int) -> List[str]:
    """The document's lines with one line (chosen by ``k``) edited."""
    lines = list(text_lines)
    i = (k * 97) % len(lines)
    if "](" in lines[i] or "://" in lines[i]:
        i = (i + 1) % len(lines)
    lines[i] = lines[i] + " edit %d" % v
    return lines


def edited(text_lines: List[str], k: int, v: int) -> str:
    return "\n".join(edited_lines(text_lines, k, v))


def utf16_len(s: str) -> int:
    return len(s) + sum(1 for c in s if ord(c) > 0xFFFF)


def range_edits(old_lines: List[str], new_lines: List[str]) -> List[Dict[str, Any]]:
    """What an editor sends for the change from ``old_lines`` to
    ``new_lines`` (as many lines each) with incremental sync: for each
    changed line, one range edit from the first differing character to the
    end of the line (UTF-16 positions)."""
    edits = []
    for i, (a, b) in enumerate(zip(old_lines, new_lines)):
        if a == b:
            continue
        p = 0
        while p < min(len(a), len(b)) and a[p] == b[p]:
            p += 1
        start = {"line": i, "character": utf16_len(a[:p])}
        end = {"line": i, "character": utf16_len(a)}
        edits.append({"range": {"start": start, "end": end}, "text": b[p:]})
    return edits


# -- benchmarks ----------------------------------------------------------

def _server_argv() -> List[str]:
    """``irilint server``, or the command in ``IRILINT_BENCH_SERVER`` (e.g.
    the server under a profiler)."""
    custom = os.environ.get("IRILINT_BENCH_SERVER")
    if custom:
        import shlex

        return shlex.split(custom)
    return irilint_argv() + ["server"]


def _start(tmp: str, options: Optional[Dict[str, Any]] = None,
           argv: Optional[List[str]] = None) -> LspClient:
    c = LspClient(argv or _server_argv(), cwd=tmp, stderr_path=os.path.join(tmp, "server-stderr.log"))
    c.initialize(dict({"debounce": 0}, **(options or {})), root=tmp)
    return c


def bench_changes(tmp: str, text: str, changes: int, warmup: int = 3, full: bool = False,
                  argv: Optional[List[str]] = None) -> tuple:
    """Seconds from each didChange to the publishDiagnostics of its version,
    and the server's CPU seconds per change (reading the message, linting,
    publishing).  Each change edits one line and undoes the previous
    change's edit; sent as range edits, as an editor does with a server
    that asks for incremental sync, or with ``full`` as the whole text.
    ``argv`` starts another server (default: irilint's)."""
    c = _start(tmp, argv=argv)
    try:
        uri = Path(tmp, "doc.md").as_uri()
        c.open(uri, text)
        c.wait_diagnostics(uri, 1, timeout=120)
        lines = text.split("\n")
        current = lines
        times = []
        v = 1
        cpu0 = 0.0
        for k in range(warmup + changes):
            v += 1
            new_lines = edited_lines(lines, k, v)
            if full:
                payload: Any = "\n".join(new_lines)
            else:
                payload = range_edits(current, new_lines)
            current = new_lines
            if k == warmup:
                cpu0 = c.cpu_seconds()
            t0 = c.change_full(uri, payload, v) if full else c.change(uri, payload, v)
            t1, _ = c.wait_diagnostics(uri, v, timeout=120)
            if k >= warmup:
                times.append(t1 - t0)
        cpu = (c.cpu_seconds() - cpu0) / max(1, changes)
        return times, cpu
    finally:
        c.close()


#: issue 18's line dense with findings (each reference has three: the
#: undecodable ``%zz``, the Hebrew path segment's direction, ...)
DENSE_LINE = " ".join(["text http://example.com/\u05e2\u05d1\u05e8%zz and more prose here"] * 4) + "\n"


def dense_doc(nbytes: int) -> str:
    """Whole lines of :data:`DENSE_LINE` up to ``nbytes`` UTF-8 bytes."""
    per = len(DENSE_LINE.encode("utf-8"))
    return DENSE_LINE * max(1, nbytes // per)


def bench_dense(tmp: str, nbytes: int, edits: int = 3, argv: Optional[List[str]] = None) -> Dict[str, Any]:
    """A plain-text document dense with findings: seconds from didOpen to
    its publishDiagnostics, and from a one-character edit (a range edit
    in the middle of the document, then its undo) to the diagnostics of
    its version (median of ``edits``), the server's CPU seconds for each,
    and the number of diagnostics."""
    text = dense_doc(nbytes)
    c = _start(tmp, argv=argv)
    try:
        uri = Path(tmp, "dense.txt").as_uri()
        cpu0 = c.cpu_seconds()
        t0 = c.open(uri, text, language="plaintext")
        t1, msg = c.wait_diagnostics(uri, 1, timeout=600)
        open_cpu = c.cpu_seconds() - cpu0
        count = len(msg["params"]["diagnostics"])
        line = text.count("\n") // 2
        times, cpus = [], []
        for k in range(edits):
            v = k + 2
            # insert one character at the start of the middle line, then take it out again
            if k % 2 == 0:
                edit = {"range": {"start": {"line": line, "character": 0},
                                  "end": {"line": line, "character": 0}}, "text": "x"}
            else:
                edit = {"range": {"start": {"line": line, "character": 0},
                                  "end": {"line": line, "character": 1}}, "text": ""}
            cpu0 = c.cpu_seconds()
            e0 = c.change(uri, [edit], v)
            e1, _ = c.wait_diagnostics(uri, v, timeout=600)
            times.append(e1 - e0)
            cpus.append(c.cpu_seconds() - cpu0)
        # the server's CPU seconds too: a figure the machine's load does not inflate
        return {"bytes": len(text.encode("utf-8")), "open": t1 - t0, "edit": median(times),
                "open_cpu": open_cpu, "edit_cpu": median(cpus), "findings": count}
    finally:
        c.close()


def bench_init(tmp: str, runs: int) -> tuple:
    ir, br = [], []
    for i in range(runs):
        order = [("irilint", _server_argv()), ("bare", bare_server_argv())]
        if i % 2:
            order.reverse()
        for name, argv in order:
            c = LspClient(argv, cwd=tmp)
            try:
                t = c.initialize({"debounce": 0}, root=tmp)
            finally:
                c.close()
            (ir if name == "irilint" else br).append(t)
    return ir, br


def bench_memory(tmp: str, docs: int, size: int) -> tuple:
    c = _start(tmp)
    try:
        time.sleep(0.2)
        base = c.rss_kb()
        for i in range(docs):
            uri = Path(tmp, "doc%02d.md" % i).as_uri()
            c.open(uri, markdown_bytes(size, seed=100 + i))
            c.wait_diagnostics(uri, 1, timeout=120)
        time.sleep(0.5)
        return base, c.rss_kb()
    finally:
        c.close()


def bench_lint_cpu(text: str, changes: int) -> tuple:
    """In-process CPU seconds of what the server runs per change (the lint
    worker's engine call, with its warm per-reference memo and the line
    index of the version), and of the scanner alone, after one changed line
    each time: figures the machine's load does not inflate."""
    import statistics

    from irilint.config import Settings
    from irilint.engine import Engine
    from irilint.lines import LineIndex
    from irilint.lsp.diagnostics import MEMO_ENTRIES
    from irilint.scanners import scanner_for
    from irilint.scanners.markdown import IncrementalMarkdownScanner

    path = os.path.join(tempfile.gettempdir(), "doc.md")
    settings = Settings()
    full_scanner = scanner_for(path=path, language_id="markdown")
    # the server lints a Markdown document with its own incremental scanner
    scanner = IncrementalMarkdownScanner()
    engine = Engine(memo_size=MEMO_ENTRIES)
    engine.check_text(text, path=path, settings=settings, scanner=scanner)
    lines = text.split("\n")
    lint, scan = [], []
    for k in range(changes):
        new = edited(lines, k, k + 2)
        t0 = time.process_time()
        engine.check_text(new, path=path, settings=settings, scanner=scanner, index=LineIndex(new))
        t1 = time.process_time()
        list(full_scanner.scan(new))  # a generator: taken to its end
        t2 = time.process_time()
        lint.append(t1 - t0)
        scan.append(t2 - t1)
    return statistics.median(lint), statistics.median(scan)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="change,big,init,memory,lint")
    ap.add_argument("--changes", type=int, default=50)
    ap.add_argument("--big-changes", type=int, default=15)
    ap.add_argument("--init-runs", type=int, default=10)
    ap.add_argument("--docs", type=int, default=50)
    ap.add_argument("--sync", choices=("both", "incremental", "full"), default="both",
                    help="how ``change`` sends its changes: range edits (the figure with the "
                         "targets), whole texts (a reference figure) or both (default)")
    ap.add_argument("--no-store", action="store_true", help="do not write bench/results.json")
    ap.add_argument("--dense", type=float, metavar="MB", default=None,
                    help="only time a plain-text document of MB megabytes dense with findings: open "
                         "and a one-character edit to their diagnostics, microseconds per finding")
    args = ap.parse_args(argv)
    if args.dense is not None:
        with tempfile.TemporaryDirectory(prefix="irilint-lsp-") as tmp:
            d = bench_dense(tmp, int(args.dense * 1_000_000))
        n = max(1, d["findings"])
        print("dense %.2f MB, %d diagnostics: open -> diagnostics %.2f s (%.1f us per finding; server CPU "
              "%.1f us); one-character edit -> diagnostics %.2f s (%.1f us per finding; server CPU %.1f us)" % (
                  d["bytes"] / 1e6, d["findings"], d["open"], d["open"] / n * 1e6, d["open_cpu"] / n * 1e6,
                  d["edit"], d["edit"] / n * 1e6, d["edit_cpu"] / n * 1e6))
        return 0
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    unknown = only - {"change", "big", "init", "memory", "lint"}
    if unknown:
        raise SystemExit("unknown: %s" % ", ".join(sorted(unknown)))
    store = not args.no_store
    with tempfile.TemporaryDirectory(prefix="irilint-lsp-") as tmp:
        if "change" in only:
            text = markdown_doc(5000)
            n_iri = text.count("://")
            cmd = "python bench/lsp_bench.py --only change --changes %d" % args.changes
        if "change" in only and args.sync != "full":
            load = wait_for_quiet()
            ts, cpu = bench_changes(tmp, text, args.changes)
            detail = "%d changes (incremental sync: range edits), 5,000 lines, %d IRIs, %.0f KB; " \
                "min %.1f ms, max %.1f ms; server CPU %.1f ms per change" % (
                    len(ts), n_iri, len(text.encode()) / 1e3, min(ts) * 1e3, max(ts) * 1e3, cpu * 1e3)
            record(Figure("lsp.change-median", "LSP didChange->diagnostics, 5,000 lines: median",
                          "%.1f ms" % (median(ts) * 1e3), "<= 15 ms", median(ts) <= 0.015, load, cmd, detail),
                   store=store)
            record(Figure("lsp.change-p95", "LSP didChange->diagnostics, 5,000 lines: p95",
                          "%.1f ms" % (p95(ts) * 1e3), "<= 30 ms", p95(ts) <= 0.030, load, cmd), store=store)
        if "change" in only and args.sync != "incremental":
            # The same changes sent as the whole text (a client without
            # incremental sync), for reference.
            load = wait_for_quiet()
            ts, cpu = bench_changes(tmp, text, args.changes, full=True)
            detail = "the same changes as whole texts (full sync); p95 %.1f ms; server CPU %.1f ms " \
                "per change" % (p95(ts) * 1e3, cpu * 1e3)
            record(Figure("lsp.change-full-median",
                          "LSP didChange->diagnostics, 5,000 lines, full-text changes: median",
                          "%.1f ms" % (median(ts) * 1e3), "", None, load, cmd + " --sync full", detail),
                   store=store)
        if "big" in only:
            text = markdown_bytes(1_000_000, seed=2)
            load = wait_for_quiet()
            ts, cpu = bench_changes(tmp, text, args.big_changes, warmup=2)
            cmd = "python bench/lsp_bench.py --only big --big-changes %d" % args.big_changes
            detail = "%d changes (incremental sync), %.2f MB, %d lines, %d IRIs; p95 %.0f ms; " \
                "server CPU %.0f ms per change" % (
                len(ts), len(text.encode()) / 1e6, text.count("\n"), text.count("://"), p95(ts) * 1e3,
                cpu * 1e3)
            record(Figure("lsp.big", "LSP didChange->diagnostics, 1 MB document: median",
                          "%.0f ms" % (median(ts) * 1e3), "<= 150 ms", median(ts) <= 0.150, load, cmd, detail),
                   store=store)
        if "init" in only:
            load = wait_for_quiet()
            ir, br = bench_init(tmp, args.init_runs)
            ratio = median(ir) / median(br)
            cmd = "python bench/lsp_bench.py --only init --init-runs %d" % args.init_runs
            detail = "irilint server %.0f ms, bare pygls server %.0f ms (medians of %d, alternating)" % (
                median(ir) * 1e3, median(br) * 1e3, len(ir))
            record(Figure("lsp.init", "LSP start to initialize response vs bare pygls",
                          "%.2fx" % ratio, "<= 1.2x", ratio <= 1.2, load, cmd, detail), store=store)
        if "lint" in only:
            load = loadavg()
            rows = []
            for what, doc in (("5,000 lines", markdown_doc(5000)), ("1 MB", markdown_bytes(1_000_000, seed=2))):
                lint, scan = bench_lint_cpu(doc, args.changes)
                rows.append((what, lint, scan))
            cmd = "python bench/lsp_bench.py --only lint --changes %d" % args.changes
            for what, lint, scan in rows:
                record(Figure("lsp.lint-cpu" + ("-big" if what == "1 MB" else ""),
                              "LSP lint per change, in-process CPU (%s)" % what,
                              "%.1f ms" % (lint * 1e3), "", None, load, cmd,
                              "median of %d changes, warm memo, incremental Markdown scan; a full scan alone: %.1f ms" % (
                                  args.changes, scan * 1e3)), store=store)
        if "memory" in only:
            load = wait_for_quiet()
            base, rss = bench_memory(tmp, args.docs, 100_000)
            cmd = "python bench/lsp_bench.py --only memory --docs %d" % args.docs
            record(Figure("lsp.memory", "LSP resident memory, %d open docs of 100 KB" % args.docs,
                          "%.1f MB" % (rss / 1024.0), "<= 80 MB", rss / 1024.0 <= 80, load, cmd,
                          "VmRSS after initialize: %.1f MB" % (base / 1024.0)), store=store)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as exc:
        print("error: %s" % exc, file=sys.stderr)
        sys.exit(2)
