NOTEBOOK = '08_efficient_attention'
CELL = 'predict_score_memory_gib'
MISTAKE = "Counts 2 bytes per score (the bf16 habit of training code) instead of float32's 4, giving 8 GiB."
NAMED_IF = 'bf16|float16|half|2 bytes|bytes per|float32|4 bytes'
FAILS = ('test_predict_score_memory_gib',)
CODE = '''# Your prediction: a number of GiB (1 GiB = 2**30 bytes)
prediction_score_memory_gib = 8
'''
