NOTEBOOK = '09_transformer'
CELL = 'predict_reversed_sentence'
MISTAKE = 'Predicts different translations; without positions the model reads a bag of words and gives the same translation.'
NAMED_IF = 'bag|order|permut|equivarian|position|same'
CODE = '''# Your prediction: "the same" or "different"
prediction_reversed_sentence = "different"
'''
FAILS = ('test_predict_reversed_sentence',)
