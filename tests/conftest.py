import pytest


@pytest.fixture(autouse=True)
def _fresh_config_cache():
    """Config lookups are cached per directory; tests make new ones."""
    from irilint import config

    config.clear_cache()
    yield
    config.clear_cache()
