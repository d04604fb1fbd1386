NOTEBOOK = '13_attention_variants'
CELL = 'document_mask'
MISTAKE = 'Writes the causal condition with keys as rows (column-vector layout), k >= q, so each query sees the later tokens of its document.'
NAMED_IF = 'transpos|upper|future|later|k ?>=? ?q|k ?<= ?q|causal|direction|wrong triangle'
CODE = '''def document_mask(doc_ids):
    doc_ids = np.asarray(doc_ids)
    L = len(doc_ids)
    same = doc_ids[:, None] == doc_ids[None, :]
    kq = np.arange(L)[:, None] <= np.arange(L)[None, :]
    return same & kq
'''
