NOTEBOOK = '11_modern_attention'
CELL = 'predict_gqa_cache_gb'
MISTAKE = 'Predicts 17.2 GB, counting the 32 query heads instead of the 8 key/value heads (4.3 GB).'
NAMED_IF = r"key/value heads|\b8 (kv|key)|query heads|32 heads|\bHkv\b|kv heads|key.value heads"
FAILS = ('test_predict_gqa_cache_gb',)
CODE = '''# Your prediction, in GB (1 GB = 10**9 bytes)
prediction_gqa_cache_gb = 17.18
'''
