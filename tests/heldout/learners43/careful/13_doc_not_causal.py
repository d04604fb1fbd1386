NOTEBOOK = "13_attention_variants"
CELL = 'document_mask'
MISTAKE = 'Same-document mask only, with no causal condition: tokens see later tokens of their own document.'
NAMED_IF = r"causal|k ?<= ?q|future|later (tokens|keys|positions)|bidirection|both ways|ahead"
CODE = '''
def document_mask(doc_ids):
    """Boolean (L, L) mask of packed documents, True = may attend."""
    doc_ids = np.asarray(doc_ids)
    return doc_ids[:, None] == doc_ids[None, :]
'''
