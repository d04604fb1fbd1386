# Honest: optional libraries probed with importlib.util.find_spec and a guarded from-import (ModuleNotFoundError), neither installed.
C = "import importlib.util\nHAVE_JAX = importlib.util.find_spec('jax') is not None\ntry:\n    from polars import DataFrame as _DF\nexcept ModuleNotFoundError:\n    _DF = None\ntry:\n    import einops\nexcept (ImportError, OSError):\n    einops = None\nprint('jax available:', HAVE_JAX)\n"
CASE = {"cls": "honest", "kind": "inproc", "cell": C}
