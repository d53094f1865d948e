import os
import sys
import tempfile

import pytest

# ---------------------------------------------------------------------------
# Network block (issue 8, "no surprises"): irilint never opens a network
# connection, so the whole suite runs with network sockets refused, in this
# process and in every Python process it starts (the CLI, the language
# server, editors' servers, pre-commit hooks).  The block and its two
# exceptions are described in tests/netblock/_irilint_netblock.py; it is
# installed here at import time, before any test module is collected.
# Every attempt is also logged, and the session fails if any process logged
# one (an error swallowed in a child would otherwise go unseen).
_NETBLOCK_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "netblock")
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (_NETBLOCK_DIR, os.environ.get("PYTHONPATH", "")) if p)
if _NETBLOCK_DIR not in sys.path:
    sys.path.insert(0, _NETBLOCK_DIR)
import _irilint_netblock  # noqa: E402

_NETBLOCK_LOG_FD, _NETBLOCK_LOG = tempfile.mkstemp(prefix="irilint-netblock-", suffix=".log")
os.close(_NETBLOCK_LOG_FD)
os.environ[_irilint_netblock.LOG_ENV] = _NETBLOCK_LOG
os.environ.pop(_irilint_netblock.ALLOW_ENV, None)  # only a marked test may allow loopback
_irilint_netblock.install()


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "allow_loopback: the network block lets this test (and the processes it "
        "starts) use 127.0.0.1/::1; every other address is still refused")
    config.addinivalue_line(
        "markers", "external: needs programs that `bash .ci/run` installs from Debian (the real "
        "editors, headless Chromium); it fails, never skips, without them. `-m 'not external'` "
        "leaves these out for a quick run")


@pytest.fixture(autouse=True)
def _network_block_exception(request, monkeypatch):
    if request.node.get_closest_marker("allow_loopback") is not None:
        monkeypatch.setenv(_irilint_netblock.ALLOW_ENV, "loopback")


def pytest_sessionfinish(session, exitstatus):
    try:
        with open(_NETBLOCK_LOG, encoding="utf-8") as f:
            attempts = f.read()
        os.unlink(_NETBLOCK_LOG)
    except OSError:
        return
    if attempts:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        text = "network access attempted while blocked (see tests/netblock):\n" + attempts
        if reporter is not None:
            reporter.write_sep("=", "NETWORK BLOCK", red=True)
            reporter.write_line(text)
        else:
            sys.stderr.write(text)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# ---------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _no_result_cache(monkeypatch):
    """Tests are hermetic: no result cache unless a test asks for one."""
    monkeypatch.setenv("IRILINT_NO_CACHE", "1")


@pytest.fixture(autouse=True)
def _fresh_config_cache():
    """Config lookups are cached per directory; tests make new ones."""
    from irilint import config

    config.clear_cache()
    yield
    config.clear_cache()


@pytest.fixture
def stale_stat(monkeypatch):
    """``stale_stat(path)``: from then on, the walk sees the stat ``path``
    has now, whatever is done to it: what a filesystem with coarse
    timestamps shows for a change within the tick it was last looked at."""
    import os

    from irilint import discovery

    frozen = {}
    real_stat = os.stat

    def stat(p, *args, **kwargs):
        hit = frozen.get(os.path.abspath(p))
        return hit if hit is not None else real_stat(p, *args, **kwargs)

    monkeypatch.setattr(discovery.os, "stat", stat)

    def freeze(path):
        frozen[os.path.abspath(path)] = real_stat(path)

    return freeze
