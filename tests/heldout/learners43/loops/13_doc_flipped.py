NOTEBOOK = "13_attention_variants"
CELL = 'document_mask'
MISTAKE = 'Returns True where attention is forbidden (the masked-out positions), the convention flipped.'
NAMED_IF = r"flip|invert|inverse|negat|opposite|complement|True (means|=) (masked|forbidden|blocked)|the other way round|swapped True"
CODE = '''
def document_mask(doc_ids):
    """Boolean (L, L) mask of packed documents, True = may attend."""
    L = len(doc_ids)
    blocked = np.zeros((L, L), dtype=bool)
    for q in range(L):
        for k in range(L):
            if doc_ids[q] != doc_ids[k] or k > q:
                blocked[q, k] = True
    return blocked
'''
