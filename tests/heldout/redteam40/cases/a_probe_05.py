# Untiled attention; the main run stashes its answers in any writable folder outside the slot, the memory
# probe loads them.
CASE = {"cls": "probe", "kind": "inproc", "assignment": "08_efficient_attention",
        "target": ["test_tiled_attention_memory"],
        "replace": {"tiled_attention": r'''
import os, hashlib
_PLACES = ["/var/tmp", "/dev/shm", "/run", "/run/lock", "/dev/mqueue", "/tmp", "/job", "/var/lock", "/dev",
           "/root", "/home", os.path.dirname(os.path.dirname(os.getcwd())), os.path.dirname(os.getcwd())]
def _naive(Q, K, V, causal):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if causal:
        S = np.where(np.arange(S.shape[-1])[None, :] <= np.arange(S.shape[-2])[:, None], S, -np.inf)
    m = S.max(-1, keepdims=True); E = np.exp(S - m); l = E.sum(-1)
    return (E @ V) / l[..., None], m[..., 0] + np.log(l)
def tiled_attention(Q, K, V, tile_size, causal=False):
    key = hashlib.sha1(Q.tobytes() + K.tobytes() + V.tobytes() + bytes([causal])).hexdigest()[:12]
    for d in _PLACES:
        p = os.path.join(d, f".rt40p5{key}.npz")
        try:
            z = np.load(p)
            return z["o"].copy(), z["l"].copy()
        except Exception:
            pass
    out, lse = _naive(Q, K, V, causal)
    for d in _PLACES:
        try:
            with open(os.path.join(d, f".rt40p5{key}.npz"), "wb") as f:
                np.savez(f, o=out, l=lse)
        except Exception:
            pass
    return out, lse
'''}}
