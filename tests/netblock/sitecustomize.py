"""Loaded by every Python process the test suite starts (``tests/conftest.py``
puts this folder first on ``PYTHONPATH``): the network block of
``_irilint_netblock``.  Not part of irilint; never installed."""
try:
    import _irilint_netblock
except ImportError:  # the folder left sys.path: nothing to do
    pass
else:
    _irilint_netblock.install_unless_installer()
