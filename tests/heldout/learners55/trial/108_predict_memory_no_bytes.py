NOTEBOOK = '08_efficient_attention'
CELL = 'predict_score_memory_gib'
MISTAKE = 'Counts entries instead of bytes: 65536^2 / 2^30 = 4, forgetting the 4 bytes of a float32.'
NAMED_IF = '4 bytes|bytes|float32|four|per (entry|number)'
CODE = '''# Your prediction: a number of GiB (1 GiB = 2**30 bytes)
prediction_score_memory_gib = 4
'''
FAILS = ('test_predict_score_memory_gib',)
