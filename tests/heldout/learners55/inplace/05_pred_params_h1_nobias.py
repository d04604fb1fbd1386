NOTEBOOK = '05_multi_head_attention'
CELL = 'predict_params_h1'
MISTAKE = 'Predicts 16,384 (4 x 64 x 64), forgetting the four bias vectors.'
NAMED_IF = r"bias"
FAILS = ('test_predict_params_h1',)
CODE = '''# Your prediction: a whole number
prediction_params_h1 = 16384
'''
