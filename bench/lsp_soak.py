#!/usr/bin/env python3
"""Language server soak: many edits across many open documents, with hovers
and code actions in between; the server's memory (VmRSS) over time, and
every request answered.

    python bench/lsp_soak.py --docs 20 --edits 10000 --seconds 600 --out soak.json

The edits are incremental ``didChange`` range edits, round robin over the
documents; they replace one line with a line holding another IRI (some with
problems, so that diagnostics and fixes change), in turn grow and shrink the
document.  After every ``--request-every`` edits the client asks for a hover
on an IRI and for the code actions of a line, and waits for both answers
(that keeps the client and the server in step: no queue grows without end).
With ``--seconds`` the edits are spread over that time; RSS is sampled every
``--sample-every`` edits.  tests/fuzz/test_lsp_soak.py runs a short soak in CI.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_bench import LspClient, _server_argv, utf16_len  # noqa: E402

IRIS = [
    "https://example.org/a/b?q=1",
    "http://例え.jp/パス",
    "http://example.com/abc%E2%80%AEgpj.exe",
    "https://аррӏе.com/login",
    "http://example.org/100%",
    "http://example.org/%e6%97%a5",
    "HTTP://EXAMPLE.ORG/Caps",
    "http://παράδειγμα.δοκιμή/διαδρομή",
    "https://xn--80ak6aa92e.com/",
    "http://example.org/résumé",
]
LINES_PER_DOC = 60


def line_for(doc: int, k: int, v: int) -> str:
    iri = IRIS[(doc + k + v) % len(IRIS)]
    pad = "x" * ((v * 7 + k) % 40)  # lines grow and shrink
    return "- item %d.%d v%d [link](%s) %s" % (doc, k, v, iri, pad)


def document(doc: int) -> List[str]:
    return [line_for(doc, k, 0) for k in range(LINES_PER_DOC)]


def soak(docs: int = 20, edits: int = 10000, seconds: float = 0.0, request_every: int = 5,
         sample_every: int = 100, timeout: float = 60.0) -> Dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="irilint-soak-")
    client = LspClient(_server_argv(), cwd=tmp, stderr_path=os.path.join(tmp, "server-stderr.log"))
    samples: List[List[float]] = []
    answered = 0
    sent = 0
    started = time.monotonic()
    #: uri -> the last version whose diagnostics were published
    published: Dict[str, Optional[int]] = {}

    def note(m: Dict[str, Any]) -> bool:
        if m.get("method") == "textDocument/publishDiagnostics":
            params = m.get("params") or {}
            published[params.get("uri")] = params.get("version")
        return True

    try:
        client.initialize({"debounce": 0}, root=tmp)
        uris = [Path(tmp, "doc%02d.md" % d).as_uri() for d in range(docs)]
        texts = [document(d) for d in range(docs)]
        versions = [1] * docs
        for d in range(docs):
            client.open(uris[d], "\n".join(texts[d]) + "\n")
        samples.append([0, 0.0, client.rss_kb()])
        for n in range(1, edits + 1):
            d = n % docs
            k = (n * 13) % LINES_PER_DOC
            versions[d] += 1
            old = texts[d][k]
            new = line_for(d, k, versions[d])
            texts[d][k] = new
            client.change(uris[d], [{"range": {"start": {"line": k, "character": 0},
                                               "end": {"line": k, "character": utf16_len(old)}},
                                     "text": new}], versions[d])
            if n % request_every == 0:
                col = utf16_len(new[:new.index("](") + 3])
                ids = [client.request("textDocument/hover", {
                    "textDocument": {"uri": uris[d]}, "position": {"line": k, "character": col}}),
                       client.request("textDocument/codeAction", {
                    "textDocument": {"uri": uris[d]},
                    "range": {"start": {"line": k, "character": 0}, "end": {"line": k, "character": utf16_len(new)}},
                    "context": {"diagnostics": []}})]
                sent += len(ids)
                for rid in ids:
                    _t, msg = client.wait(lambda m, rid=rid: note(m) and m.get("id") == rid and "method" not in m,
                                          timeout)
                    if "error" in msg:
                        raise RuntimeError("request %d failed: %s" % (rid, msg["error"]))
                    answered += 1
            if n % sample_every == 0 or n == edits:
                samples.append([n, round(time.monotonic() - started, 2), client.rss_kb()])
            if seconds:
                ahead = started + seconds * n / edits - time.monotonic()
                if ahead > 0:
                    time.sleep(ahead)
        # the last version of every document is diagnosed: nothing was dropped
        want = dict(zip(uris, versions))
        if any(published.get(u) != v for u, v in want.items()):
            client.wait(lambda m: note(m) and all(published.get(u) == v for u, v in want.items()), timeout)
        cpu = client.cpu_seconds()
    finally:
        client.close()
    return {"docs": docs, "edits": edits, "requests_sent": sent, "requests_answered": answered,
            "wall_s": round(time.monotonic() - started, 1), "server_cpu_s": round(cpu, 1),
            "rss_kb": samples}


def slope_after_warmup(samples: List[List[float]], warmup_fraction: float = 0.2) -> float:
    """RSS growth in KB per edit after warm-up: the median of the slopes
    between every two samples (Theil-Sen), so a leak shows as a steady
    slope while a passing spike (a collection, an arena allocated under
    load) does not."""
    last_n = samples[-1][0]
    after = [s for s in samples if s[0] >= last_n * warmup_fraction]
    slopes = sorted((b[2] - a[2]) / (b[0] - a[0]) for i, a in enumerate(after) for b in after[i + 1:]
                    if b[0] != a[0])
    if not slopes:
        return 0.0
    mid = len(slopes) // 2
    return slopes[mid] if len(slopes) % 2 else (slopes[mid - 1] + slopes[mid]) / 2


def growth_after_warmup(samples: List[List[float]], warmup_fraction: float = 0.2) -> Dict[str, float]:
    """RSS at the end of warm-up, at the end, and the largest seen after warm-up (KB)."""
    last_n = samples[-1][0]
    after = [s for s in samples if s[0] >= last_n * warmup_fraction]
    return {"warm_kb": after[0][2], "end_kb": samples[-1][2], "max_after_warmup_kb": max(s[2] for s in after)}


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--docs", type=int, default=20)
    p.add_argument("--edits", type=int, default=10000)
    p.add_argument("--seconds", type=float, default=0.0, help="spread the edits over this time")
    p.add_argument("--request-every", type=int, default=5)
    p.add_argument("--sample-every", type=int, default=100)
    p.add_argument("--out", help="write the result (with the RSS curve) as JSON here")
    a = p.parse_args(argv)
    result = soak(a.docs, a.edits, a.seconds, a.request_every, a.sample_every)
    result["growth"] = growth_after_warmup(result["rss_kb"])
    if a.out:
        with open(a.out, "w") as fh:
            json.dump(result, fh, indent=1)
    print(json.dumps({k: v for k, v in result.items() if k != "rss_kb"}))
    return 0 if result["requests_answered"] == result["requests_sent"] else 1


if __name__ == "__main__":
    sys.exit(main())
