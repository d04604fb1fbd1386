NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention'
MISTAKE = 'The causal branch loops over Q.shape[0] as the positions and slices the first axis, so it is only right for one unbatched sequence.'
NAMED_IF = r'batch|leading|\.\.\.|rank|3-D|ndim|shape\[0\]'
CODE = '''def linear_attention(Q, K, V, feature_map, causal=False):
    """Attention with the kernel φ(q)·φ(k): φ(Q)(φ(K)ᵀV) / φ(Q)Σφ(K), linear in the length."""
    phi_q = feature_map(Q)
    phi_k = feature_map(K)
    if not causal:
        S = np.swapaxes(phi_k, -1, -2) @ V
        z = phi_k.sum(axis=-2)
        num = phi_q @ S
        den = np.sum(phi_q * z[..., None, :], axis=-1)
        return num / den[..., None]
    L = Q.shape[0]
    outs = []
    for i in range(L):
        S = phi_k[:i + 1].T @ V[:i + 1]
        z = phi_k[:i + 1].sum(axis=0)
        outs.append(phi_q[i] @ S / (phi_q[i] @ z))
    return np.array(outs)
'''
