NOTEBOOK = '13_attention_variants'
CELL = 'predict_mla_cache_bytes'
MISTAKE = 'Predicts 1024 bytes (the latent only), forgetting the decoupled RoPE key of width 64 (1152).'
NAMED_IF = r"rope|decoupled|d_?R|\b64\b|1,?152"
FAILS = ('test_predict_mla_cache_bytes',)
CODE = '''# Your prediction, in bytes per token and per layer
prediction_mla_cache_bytes = 1024
'''
