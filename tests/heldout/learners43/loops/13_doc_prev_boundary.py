NOTEBOOK = "13_attention_variants"
CELL = 'document_mask'
MISTAKE = "Computes each document's start from np.diff without the +1, so the first token of each document also sees the last token of the previous document."
NAMED_IF = r"previous document|preceding document|earlier document|first token|boundar|off[- ]by[- ]one|leak|across documents|other document"
CODE = '''
def document_mask(doc_ids):
    """Boolean (L, L) mask of packed documents, True = may attend."""
    doc_ids = np.asarray(doc_ids)
    L = len(doc_ids)
    starts = np.zeros(L, dtype=int)
    boundaries = np.nonzero(np.diff(doc_ids))[0]          # where a new document begins
    for i in range(L):
        before = boundaries[boundaries < i]
        starts[i] = before[-1] if len(before) else 0
    mask = np.zeros((L, L), dtype=bool)
    for q in range(L):
        for k in range(L):
            mask[q, k] = starts[q] <= k <= q
    return mask
'''
