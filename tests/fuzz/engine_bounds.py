#!/usr/bin/env python3
"""What bounds the ``engine`` fuzz target's rate: the target against the
least it could do on the same inputs, in one process.

    python tests/fuzz/engine_bounds.py CORPUS               # without instrumentation
    python tests/fuzz/engine_bounds.py CORPUS --instrument  # as run_targets.py instruments it

CORPUS is a folder of inputs, e.g. the ``engine/corpus`` folder a run of
``run_targets.py --all --only engine`` leaves.  Prints inputs a second
(``time.process_time``, one pass over the corpus but its first 20 inputs
(half of a smaller one), which warm up) of:

* ``target``: the ``engine`` target, every invariant;
* ``one check``: one ``check_text`` of the input, the target's first step;
* ``one check, no fix judged``: the same with ``Engine.judge_edit`` and
  ``Engine.judge_decoding`` answering None, so that no fix is judged by
  running the rules again on the edited text.  This is not a check irilint
  makes (its fixes would then be offered unjudged); it is the rate that
  running every rule once on each input allows.
"""
from __future__ import annotations

import os
import sys
import time
from typing import Callable, List

#: inputs run before the timing starts, and not timed
_WARM_UP = 20

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)


def _rate(function: Callable[[bytes], object], inputs: List[bytes]) -> float:
    """Inputs a second of ``function`` over ``inputs`` but the first few,
    which warm it up (patterns compiled, tables built), with an engine of
    its own made after them: none of the inputs timed was seen before, as
    under libFuzzer, where each input is new."""
    import targets
    from irilint.engine import Engine

    warm = min(_WARM_UP, len(inputs) // 2)
    for data in inputs[:warm]:
        function(data)
    targets._ENGINE = Engine()
    started = time.process_time()
    for data in inputs[warm:]:
        function(data)
    return (len(inputs) - warm) / max(time.process_time() - started, 1e-9)


def main(argv: List[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    import targets
    from irilint.engine import Engine

    target = targets.TARGETS["engine"]
    folder = argv[0]
    inputs = [open(os.path.join(folder, name), "rb").read()[:target.max_len] for name in sorted(os.listdir(folder))]
    if len(inputs) < 2:
        print("engine_bounds: %s holds %d inputs; it needs at least 2" % (folder, len(inputs)), file=sys.stderr)
        return 2
    if "--instrument" in argv:
        import run_targets

        run_targets.instrument_layer("engine")

    def one_check(data: bytes) -> object:
        return targets._check_reference(targets.text_of(data))

    rows = [("target", _rate(target.function, inputs)), ("one check", _rate(one_check, inputs))]
    Engine.judge_edit = lambda self, *args, **kwargs: None  # type: ignore[method-assign]
    Engine.judge_decoding = lambda self, *args, **kwargs: None  # type: ignore[method-assign]
    rows.append(("one check, no fix judged", _rate(one_check, inputs)))
    print("%d inputs from %s, %s" % (len(inputs), folder,
                                      "instrumented" if "--instrument" in argv else "not instrumented"))
    for what, rate in rows:
        print("%-26s %6.0f inputs/s" % (what, rate))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
