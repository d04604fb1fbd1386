NOTEBOOK = '02_query_key_value'
CELL = 'predict_weights_shape'
MISTAKE = "Predicts the weights' shape with keys before queries, (2, 6, 4), as in a key-major layout."
NAMED_IF = 'transpos|swap|revers|order|(one )?row (per|for each) query|quer(y|ies)[^.]{0,40}(rows?|first)|\\bLq\\b[^.]{0,20}\\bLk\\b'
FAILS = ('test_predict_weights_shape',)
CODE = '''# Your prediction: a tuple of ints, e.g. (1, 2, 3)
prediction_weights_shape = (2, 6, 4)
'''
