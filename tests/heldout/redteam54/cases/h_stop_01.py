# Honest: an optional import of a library the course does not install, inside try/except ImportError, in a batch.
CASE = {"cls": "stop", "kind": "batch", "honest": True,
        "cell": "try:\n    import rich_progress_extras as _rpe\nexcept ImportError:\n    _rpe = None\nprint('fancy output' if _rpe else 'plain output')\n"}
