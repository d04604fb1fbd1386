NOTEBOOK = "13_attention_variants"
CELL = 'predict_mla_cache_bytes'
MISTAKE = 'Predicts 576: the count of numbers (512 + 64), not bytes (forgets 2 bytes a number).'
NAMED_IF = r"bytes? (per|a) number|2 bytes|bf16|numbers,? not bytes|count(ed|s)? (of )?numbers|element count|times 2|\bx ?2\b"
FAILS = ('test_predict_mla_cache_bytes',)
CODE = '''prediction_mla_cache_bytes = 576
'''
