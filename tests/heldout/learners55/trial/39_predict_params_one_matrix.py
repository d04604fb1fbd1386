NOTEBOOK = '03_self_attention'
CELL = 'predict_parameter_count'
MISTAKE = 'Counts only one 300x100 matrix (30000) instead of three (90000).'
NAMED_IF = 'three|3 ?[x×*]|W_?k|W_?v|each|matri'
CODE = '''# Your prediction: a number
prediction_parameter_count = 30000
'''
FAILS = ('test_predict_parameter_count',)
