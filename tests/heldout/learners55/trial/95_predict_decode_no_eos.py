NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'predict_decode_shape'
MISTAKE = 'Predicts (3, 25), forgetting that EOS is kept as a token: (3, 26).'
NAMED_IF = 'EOS|end|\\+ ?1|26|one more|longest'
CODE = '''# Your prediction: a shape, a tuple of two ints
prediction_decode_shape = (3, 25)
'''
FAILS = ('test_predict_decode_shape',)
