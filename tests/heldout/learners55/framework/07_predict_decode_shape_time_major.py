NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'predict_decode_shape'
MISTAKE = 'Predicts the shape time-major, (26, 3), as an RNN with batch_first=False would return.'
NAMED_IF = 'batch[_ ]first|time[- ]major|\\(T, ?B\\)|transpos|swap|order|first (axis|dimension)'
FAILS = ('test_predict_decode_shape',)
CODE = '''# Your prediction: a shape, a tuple of two ints
prediction_decode_shape = (26, 3)
'''
