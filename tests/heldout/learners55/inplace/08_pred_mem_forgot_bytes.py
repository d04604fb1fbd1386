NOTEBOOK = '08_efficient_attention'
CELL = 'predict_score_memory_gib'
MISTAKE = 'Predicts 4 GiB: counts the 2^32 numbers but forgets that a float32 takes 4 bytes (16 GiB).'
NAMED_IF = r"4 bytes|bytes? (per|each)|float32|\b16\b"
FAILS = ('test_predict_score_memory_gib',)
CODE = '''# Your prediction: a number of GiB (1 GiB = 2**30 bytes)
prediction_score_memory_gib = 4
'''
