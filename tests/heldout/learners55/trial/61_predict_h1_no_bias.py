NOTEBOOK = '05_multi_head_attention'
CELL = 'predict_params_h1'
MISTAKE = 'Counts only the four 64x64 weight matrices (16384), forgetting the biases.'
NAMED_IF = 'bias'
CODE = '''# Your prediction: a whole number
prediction_params_h1 = 16384
'''
FAILS = ('test_predict_params_h1',)
