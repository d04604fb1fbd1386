NOTEBOOK = '13_attention_variants'
CELL = 'predict_mla_cache_bytes'
MISTAKE = 'Counts only the latent (512 x 2 = 1024 bytes), forgetting the decoupled RoPE key (64 numbers).'
NAMED_IF = 'RoPE|decoupled|d_?R|\\b64\\b|rotary'
CODE = '''# Your prediction, in bytes per token and per layer
prediction_mla_cache_bytes = 1024
'''
FAILS = ('test_predict_mla_cache_bytes',)
