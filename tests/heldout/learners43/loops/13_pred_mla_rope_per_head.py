NOTEBOOK = "13_attention_variants"
CELL = 'predict_mla_cache_bytes'
MISTAKE = 'Predicts 17408: caches a RoPE key per head (128 x 64) instead of one shared by all heads.'
NAMED_IF = r"per head|every head|each head|shared|all heads|128 ?(×|x|\*) ?64"
FAILS = ('test_predict_mla_cache_bytes',)
CODE = '''prediction_mla_cache_bytes = (512 + 128 * 64) * 2
'''
