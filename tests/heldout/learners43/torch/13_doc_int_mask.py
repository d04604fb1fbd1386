NOTEBOOK = "13_attention_variants"
CELL = 'document_mask'
MISTAKE = 'Returns a 0/1 integer tensor-converted array instead of booleans.'
NAMED_IF = r"bool|dtype|0 ?/ ?1|integer|int64|\bints?\b|not boolean"
CODE = '''
def document_mask(doc_ids):
    """Boolean (L, L) mask of packed documents, True = may attend."""
    d = torch.as_tensor(np.asarray(doc_ids))
    same = (d[:, None] == d[None, :]).long()
    causal = torch.tril(torch.ones(len(d), len(d), dtype=torch.long))
    return (same * causal).numpy()
'''
