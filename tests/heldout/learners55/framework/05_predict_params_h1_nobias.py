NOTEBOOK = '05_multi_head_attention'
CELL = 'predict_params_h1'
MISTAKE = 'Counts only the weight matrices (4 x 64 x 64), forgetting the biases of bias=True.'
NAMED_IF = 'bias'
FAILS = ('test_predict_params_h1',)
CODE = '''# Your prediction: a whole number
prediction_params_h1 = 16384
'''
