NOTEBOOK = '13_attention_variants'
CELL = 'document_mask'
MISTAKE = 'Returns the mask of blocked pairs (True = masked out, as an additive-mask builder would), the complement of the allowed pairs.'
NAMED_IF = 'invert|opposite|revers|negat|flip|complement|~ ?mask|true ?(=|means|marks)? ?(blocked|masked|ignored|not allowed)|blocked|convention'
CODE = '''def document_mask(doc_ids):
    doc_ids = np.asarray(doc_ids)
    L = len(doc_ids)
    same = doc_ids[:, None] == doc_ids[None, :]
    causal = np.arange(L)[None, :] <= np.arange(L)[:, None]
    return ~(same & causal)
'''
