NOTEBOOK = '13_attention_variants'
CELL = 'document_mask'
MISTAKE = "Returns only 'same document', without the causal part k <= q."
NAMED_IF = r"causal|k ?<= ?q|future|later"
CODE = '''def document_mask(doc_ids):
    doc_ids = np.asarray(doc_ids)
    return doc_ids[:, None] == doc_ids[None, :]
'''
