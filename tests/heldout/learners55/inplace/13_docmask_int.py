NOTEBOOK = '13_attention_variants'
CELL = 'document_mask'
MISTAKE = 'Multiplies the same-document matrix by np.tril of ones, returning 0/1 numbers instead of booleans.'
NAMED_IF = r"\bbool|dtype|0/1|\bint|float|numbers"
CODE = '''def document_mask(doc_ids):
    doc_ids = np.asarray(doc_ids)
    L = len(doc_ids)
    m = np.tril(np.ones((L, L)))
    m *= doc_ids[:, None] == doc_ids[None, :]
    return m
'''
