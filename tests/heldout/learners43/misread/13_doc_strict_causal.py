NOTEBOOK = "13_attention_variants"
CELL = 'document_mask'
MISTAKE = "Uses k < q inside a document, so a token does not see itself (and a document's first token sees nothing)."
NAMED_IF = r"diagonal|sees? itself|k ?< ?q|strict|own position|`<` where `<=`|bound itself left out"
CODE = '''
def document_mask(doc_ids):
    """Boolean (L, L) mask of packed documents, True = may attend."""
    doc_ids = np.asarray(doc_ids)
    L = len(doc_ids)
    pos = np.arange(L)
    return (doc_ids[:, None] == doc_ids[None, :]) & (pos[None, :] < pos[:, None])
'''
