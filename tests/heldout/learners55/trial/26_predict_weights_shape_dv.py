NOTEBOOK = '02_query_key_value'
CELL = 'predict_weights_shape'
MISTAKE = "Predicts (2, 4, 5), the shape of the output, instead of the weights' (2, 4, 6): one weight per key."
NAMED_IF = 'L_?k|key|D_?v|value|output|\\b6\\b'
CODE = '''# Your prediction: a tuple of ints, e.g. (1, 2, 3)
prediction_weights_shape = (2, 4, 5)
'''
FAILS = ('test_predict_weights_shape',)
