"""A short soak of the language server (the 10-minute one is by hand:
``bench/lsp_soak.py``, figures in tests/fuzz/README.md): 1,500 edits across
20 open documents, hovers and code actions in between.  Every request is
answered, the last version of every document is diagnosed, and memory is
flat after warm-up."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import lsp_soak  # noqa: E402


def test_short_soak_answers_every_request_and_memory_stays_flat():
    result = lsp_soak.soak(docs=20, edits=1500, request_every=5, sample_every=100)
    assert result["requests_sent"] == 1500 // 5 * 2
    assert result["requests_answered"] == result["requests_sent"]
    growth = lsp_soak.growth_after_warmup(result["rss_kb"])
    # pygls kept the future of every notification: ~2 KB an edit, 2.4 MB
    # over the 1,200 edits after warm-up; flat now (under 0.2 MB here)
    assert growth["max_after_warmup_kb"] - growth["warm_kb"] < 1024, result["rss_kb"]


def test_growth_is_measured_after_warm_up():
    samples = [[0, 0, 40000], [100, 1, 50000], [200, 2, 51000], [500, 5, 51500], [1000, 9, 51200]]
    assert lsp_soak.growth_after_warmup(samples) == {"warm_kb": 51000, "end_kb": 51200,
                                                     "max_after_warmup_kb": 51500}
