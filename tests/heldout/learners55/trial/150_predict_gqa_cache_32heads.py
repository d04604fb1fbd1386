NOTEBOOK = '11_modern_attention'
CELL = 'predict_gqa_cache_gb'
MISTAKE = 'Uses the 32 query heads instead of the 8 key/value heads (17.2 GB instead of 4.3).'
NAMED_IF = '\\b8\\b|key/value heads|kv heads|query heads|32 heads|four times'
CODE = '''# Your prediction, in GB (1 GB = 10**9 bytes)
prediction_gqa_cache_gb = 17.2
'''
FAILS = ('test_predict_gqa_cache_gb',)
