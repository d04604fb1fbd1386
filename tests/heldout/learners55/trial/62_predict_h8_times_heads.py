NOTEBOOK = '05_multi_head_attention'
CELL = 'predict_params_h8'
MISTAKE = 'Multiplies the one-head count by 8, as if every head had its own full-size projections; the count does not depend on the number of heads.'
NAMED_IF = "head|independent|does not depend|doesn'?t depend|share|split|same"
CODE = '''# Your prediction: a whole number
prediction_params_h8 = 528384
'''
FAILS = ('test_predict_params_h8',)
