NOTEBOOK = '11_modern_attention'
CELL = 'predict_gqa_cache_gb'
MISTAKE = 'Counts the cache with all 32 heads (as if every query head had its own key/value head, the nn.MultiheadAttention picture), about 17.2 GB.'
NAMED_IF = 'key/value heads|kv heads|\\b8 (key|kv)|query heads|32 heads|grouped|shared'
FAILS = ('test_predict_gqa_cache_gb',)
CODE = '''# Your prediction, in GB (1 GB = 10**9 bytes)
prediction_gqa_cache_gb = 17.18
'''
