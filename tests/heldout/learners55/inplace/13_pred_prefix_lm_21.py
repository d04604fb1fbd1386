NOTEBOOK = '13_attention_variants'
CELL = 'predict_prefix_lm_count'
MISTAKE = 'Predicts 21, the causal count, forgetting that the prefix tokens read each other bidirectionally (24).'
NAMED_IF = r"prefix|bidirectional|\b24\b|three extra|\bor\b"
FAILS = ('test_predict_prefix_lm_count',)
CODE = '''# Your prediction: a whole number of allowed (query, key) pairs
prediction_prefix_lm_count = 21
'''
