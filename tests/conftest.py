import pytest


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
