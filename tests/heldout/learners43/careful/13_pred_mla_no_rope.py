NOTEBOOK = "13_attention_variants"
CELL = 'predict_mla_cache_bytes'
MISTAKE = 'Predicts 1024 bytes: the latent only, forgetting the decoupled RoPE key cached beside it.'
NAMED_IF = r"rope|decoupled|d_?R|64 (more )?numbers|the latent (alone|only)|positional key"
FAILS = ('test_predict_mla_cache_bytes',)
CODE = '''prediction_mla_cache_bytes = 1024
'''
