NOTEBOOK = '09_transformer'
CELL = 'predict_reversed_sentence'
MISTAKE = "Predicts 'different' for the model without positions, which reads a bag of words."
NAMED_IF = r"bag|equivarian|invarian|permut|position|\bset\b|order"
FAILS = ('test_predict_reversed_sentence',)
CODE = '''# Your prediction: "the same" or "different"
prediction_reversed_sentence = "different"
'''
