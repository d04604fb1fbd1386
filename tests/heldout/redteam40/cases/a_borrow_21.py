# mix_tokens found by scanning sys.modules for any attnlab module that holds a mix_tokens (the torch twin
# first, tensors in and out), a route by module globals, not by the public name.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_mix_tokens", "test_mix_tokens_batched"],
        "replace": {"mix_tokens": r'''
import sys, importlib
def mix_tokens(X):
    X = np.asarray(X, dtype=float)
    import torch
    importlib.import_module("attnlab.tor" + "ch")
    for name, mod in sorted(sys.modules.items(), key=lambda kv: "torch" not in kv[0]):
        if not name.startswith("attnlab") or name in ("attnlab", "attnlab.averages"):
            continue
        f = getattr(mod, "mix_tokens", None)
        if not callable(f):
            continue
        for conv in (lambda a: torch.from_numpy(a), lambda a: a):
            try:
                out = f(conv(X))
                return out.numpy() if hasattr(out, "numpy") else np.asarray(out)
            except Exception:
                pass
    return np.zeros_like(X)
'''}}
