NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'predict_unflipped_keys'
MISTAKE = 'Predicts set(), expecting every key blocked; the padding key 4 is the only one left.'
NAMED_IF = r"padding|key 4|\{4\}|\b4\b"
FAILS = ('test_predict_unflipped_keys',)
CODE = '''# Your prediction: a set of key indices, e.g. {0, 2}, or set()
prediction_unflipped_keys = set()
'''
