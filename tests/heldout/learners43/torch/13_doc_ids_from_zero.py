NOTEBOOK = "13_attention_variants"
CELL = 'document_mask'
MISTAKE = "Assumes the ids are 0, 1, 2, ... in order and finds each document's range with bincount/cumsum, so arbitrary integer ids give wrong ranges."
NAMED_IF = r"any integers?|arbitrary|ids? (are|is) not|not (consecutive|sorted|0, 1)|from 0|bincount|label|id values|numbering|unsorted|non-consecutive"
CODE = '''
def document_mask(doc_ids):
    """Boolean (L, L) mask of packed documents, True = may attend."""
    d = torch.as_tensor(np.asarray(doc_ids), dtype=torch.long)
    counts = torch.bincount(d)
    ends = torch.cumsum(counts, 0)
    starts = ends - counts
    L = len(d)
    q = torch.arange(L)[:, None]
    k = torch.arange(L)[None, :]
    start_q = starts[d][:, None]
    return ((k >= start_q) & (k <= q)).numpy()
'''
