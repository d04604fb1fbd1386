NOTEBOOK = '02_query_key_value'
CELL = 'predict_score_variance'
MISTAKE = 'Predicts 8, the standard deviation sqrt(64), instead of the variance 64.'
NAMED_IF = r"standard deviation|\bstd\b|square root|sqrt|√|variance (is|=|equals) (d_?k|64)|\b64\b"
FAILS = ('test_predict_score_variance',)
CODE = '''# Your prediction: a number
prediction_score_variance = 8
'''
