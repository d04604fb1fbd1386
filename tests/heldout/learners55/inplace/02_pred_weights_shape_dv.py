NOTEBOOK = '02_query_key_value'
CELL = 'predict_weights_shape'
MISTAKE = 'Predicts (2, 4, 5), the shape of the output (value width) instead of the weights (2, Lq, Lk) = (2, 4, 6).'
NAMED_IF = r"\bLk\b|keys|\(2, ?4, ?6\)|one (weight|column) per key|output|value width|\bDv\b"
FAILS = ('test_predict_weights_shape',)
CODE = '''# Your prediction: a tuple of ints, e.g. (1, 2, 3)
prediction_weights_shape = (2, 4, 5)
'''
