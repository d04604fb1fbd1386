NOTEBOOK = '01_weighted_averages'
CELL = 'predict_huge_scores'
MISTAKE = 'Predicts 1.0 (thinks huge scores make the softmax an argmax); only the gaps between scores matter, so it is about 0.665.'
NAMED_IF = r"shift|gap|differ(ence|s)?|argmax|one-hot|0\.66|0\.67|e\^?2|only .{0,30}(relative|difference)"
FAILS = ('test_predict_huge_scores',)
CODE = '''# Your prediction: a number between 0 and 1
prediction_huge_scores = 1.0
'''
