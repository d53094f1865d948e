"""The engine pauses the cyclic garbage collector during a check, and always
restores the state it found (nested, concurrent and failing checks too)."""
from __future__ import annotations

import gc
import threading

import pytest

from irilint.engine import Engine
from irilint.scanners import scanner_for


class _RecordingScanner:
    """The text scanner, noting whether the collector ran during the scan;
    optionally checking another document from inside (nesting) or failing."""

    def __init__(self, nested=None, fail=False, barrier=None):
        self.inner = scanner_for(path="doc.txt")
        self.name = self.inner.name
        self.comments = self.inner.comments
        self.seen = []
        self.nested = nested
        self.fail = fail
        self.barrier = barrier

    def scan(self, text):
        self.seen.append(gc.isenabled())
        if self.barrier is not None:
            self.barrier.wait(timeout=10)
        if self.nested is not None:
            self.nested()
            self.seen.append(gc.isenabled())
        if self.fail:
            raise RuntimeError("scanner bug")
        return self.inner.scan(text)


@pytest.fixture(autouse=True)
def _collector_enabled():
    was = gc.isenabled()
    gc.enable()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_collector_is_paused_during_a_check_and_enabled_after():
    scanner = _RecordingScanner()
    res = Engine().check_text("see http://exa\u200bmple.org/\n", path="doc.txt", scanner=scanner)
    assert scanner.seen == [False]
    assert gc.isenabled()
    assert res.findings  # the check itself is unchanged


def test_a_disabled_collector_stays_disabled():
    gc.disable()
    Engine().check_text("http://example.org/\n", path="doc.txt")
    assert not gc.isenabled()


def test_nested_checks_enable_the_collector_only_at_the_end():
    engine = Engine()
    inner = _RecordingScanner()
    outer = _RecordingScanner(nested=lambda: engine.check_text("x http://a.example/", path="doc.txt",
                                                               scanner=inner))
    engine.check_text("y http://b.example/", path="doc.txt", scanner=outer)
    assert outer.seen == [False, False] and inner.seen == [False]
    assert gc.isenabled()


def test_a_failing_check_restores_the_collector():
    with pytest.raises(RuntimeError):
        Engine().check_text("http://example.org/", path="doc.txt", scanner=_RecordingScanner(fail=True))
    assert gc.isenabled()


def test_concurrent_checks_share_the_pause():
    barrier = threading.Barrier(2)
    scanners = [_RecordingScanner(barrier=barrier) for _ in range(2)]
    errors = []

    def run(scanner):
        try:
            Engine().check_text("http://example.org/", path="doc.txt", scanner=scanner)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(s,)) for s in scanners]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not errors and not any(t.is_alive() for t in threads)
    assert [s.seen for s in scanners] == [[False], [False]]
    assert gc.isenabled()
