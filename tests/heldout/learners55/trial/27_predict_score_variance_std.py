NOTEBOOK = '02_query_key_value'
CELL = 'predict_score_variance'
MISTAKE = 'Predicts 8, the standard deviation, instead of the variance 64.'
NAMED_IF = '\\bstd|standard deviation|sqrt|square|√|spread'
CODE = '''# Your prediction: a number
prediction_score_variance = 8
'''
FAILS = ('test_predict_score_variance',)
