NOTEBOOK = '02_query_key_value'
CELL = 'attend'
MISTAKE = 'Uses a raw exp without subtracting the maximum; the resulting nan from overflowing scores was patched with np.nan_to_num, so sharp scores give wrong weights.'
NAMED_IF = 'overflow|stab|max(imum)?|\\binf|nan|finite|attnlab\\.softmax|exact'
CODE = '''def attend(q, K, V):
    s = K @ q / np.sqrt(q.shape[-1])
    e = np.exp(s)
    w = np.nan_to_num(e / e.sum())
    return w @ V, w
'''
