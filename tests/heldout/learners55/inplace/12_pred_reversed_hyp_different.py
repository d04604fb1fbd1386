NOTEBOOK = '12_what_attention_learns'
CELL = 'predict_reversed_hypothesis'
MISTAKE = "Predicts 'different'; the model sums over the words, so reversing b changes nothing."
NAMED_IF = r"\border|permut|\bsum|invarian|\bbag|\bset\b"
FAILS = ('test_predict_reversed_hypothesis',)
CODE = '''# Your prediction: "the same" or "different"
prediction_reversed_hypothesis = "different"
'''
