NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention'
MISTAKE = 'Ignores causal=True and always uses the full sums over every key.'
NAMED_IF = 'causal|prefix|future|j ?<=? ?i|later (keys|positions)'
CODE = '''def linear_attention(Q, K, V, feature_map, causal=False):
    fQ = feature_map(Q)
    fK = feature_map(K)
    S = np.swapaxes(fK, -1, -2) @ V
    z = fK.sum(axis=-2)
    return (fQ @ S) / (fQ @ z[..., :, None])
'''
