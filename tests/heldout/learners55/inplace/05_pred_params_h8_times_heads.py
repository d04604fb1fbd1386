NOTEBOOK = '05_multi_head_attention'
CELL = 'predict_params_h8'
MISTAKE = 'Predicts eight times the one-head count (8 x 4 x (128*128 + 128)), thinking every head has full-width projections of its own.'
NAMED_IF = r"split|share|(does not|doesn't|not) depend|independent of|same (number|count)|per head|columns|slice|number of heads"
FAILS = ('test_predict_params_h8',)
CODE = '''# Your prediction: a whole number
prediction_params_h8 = 528384
'''
