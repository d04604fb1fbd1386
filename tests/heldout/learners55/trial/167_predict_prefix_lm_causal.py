NOTEBOOK = '13_attention_variants'
CELL = 'predict_prefix_lm_count'
MISTAKE = 'Counts the causal pairs only (21), forgetting that the prefix attends in both directions (24).'
NAMED_IF = 'prefix|bidirectional|full|both directions|3 ?[x×] ?3|\\b24\\b|causal'
CODE = '''# Your prediction: a whole number of allowed (query, key) pairs
prediction_prefix_lm_count = 21
'''
FAILS = ('test_predict_prefix_lm_count',)
