NOTEBOOK = '13_attention_variants'
CELL = 'document_mask'
MISTAKE = 'Checks only the same document, not causality inside it.'
NAMED_IF = 'causal|k ?<=? ?q|future|later'
CODE = '''def document_mask(doc_ids):
    d = np.asarray(doc_ids)
    return d[:, None] == d[None, :]
'''
