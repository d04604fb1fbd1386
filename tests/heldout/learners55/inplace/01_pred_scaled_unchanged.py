NOTEBOOK = '01_weighted_averages'
CELL = 'predict_scaled_logits'
MISTAKE = "Predicts 'unchanged', confusing scaling the scores with shifting them."
NAMED_IF = r"shift|scale|ratio|invarian|multipl|temperature|sharper"
FAILS = ('test_predict_scaled_logits',)
CODE = '''# Your prediction: "sharper", "flatter" or "unchanged"
prediction_scaled_logits = "unchanged"
'''
