NOTEBOOK = "13_attention_variants"
CELL = 'document_mask'
MISTAKE = 'Builds the mask with k >= q (keys at or after the query), i.e. the transpose of the right mask.'
NAMED_IF = r"transpos|k ?>= ?q|upper|orientation|swap|future|later (tokens|keys)|anti-?causal|rows? and columns?"
CODE = '''
def document_mask(doc_ids):
    """Boolean (L, L) mask of packed documents, True = may attend."""
    doc_ids = np.asarray(doc_ids)
    same = doc_ids[:, None] == doc_ids[None, :]
    return same & np.triu(np.ones(same.shape, dtype=bool))
'''
