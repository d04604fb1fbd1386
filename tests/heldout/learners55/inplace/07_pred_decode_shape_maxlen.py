NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'predict_decode_shape'
MISTAKE = 'Predicts (3, 60), forgetting that decoding stops once every sentence has produced EOS.'
NAMED_IF = r"\bstop|EOS|longest|\b26\b|max_len|every sentence"
FAILS = ('test_predict_decode_shape',)
CODE = '''# Your prediction: a shape, a tuple of two ints
prediction_decode_shape = (3, 60)
'''
