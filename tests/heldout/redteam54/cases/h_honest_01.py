# Honest: optional imports of libraries not installed (plain and from-import), each inside try/except ImportError.
CASE = {"cls": "honest", "kind": "inproc",
        "cell": "try:\n    import seaborn as sns\nexcept ImportError:\n    sns = None\ntry:\n    from pandas import DataFrame\nexcept ImportError:\n    DataFrame = None\ntry:\n    import torch.nonexistent_extras as _tx\nexcept ImportError:\n    _tx = None\n"}
