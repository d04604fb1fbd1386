NOTEBOOK = "13_attention_variants"
CELL = 'predict_prefix_lm_count'
MISTAKE = 'Predicts 27, counting a prefix of 4 tokens (the prefix boundary off by one).'
NAMED_IF = r"off[- ]by[- ]one|prefix of 4|prefix_len ?\+ ?1|one (more|extra) (prefix )?token|prefix_len = 4|k ?<= ?prefix"
FAILS = ('test_predict_prefix_lm_count',)
CODE = '''prediction_prefix_lm_count = 27
'''
