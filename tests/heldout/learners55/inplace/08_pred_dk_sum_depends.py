NOTEBOOK = '08_efficient_attention'
CELL = 'predict_dk_sum'
MISTAKE = "Predicts 'it depends on the inputs'; the rows of dS sum to zero, so sum_j dK_j is zero."
NAMED_IF = r"zero|sum to (0|zero)|rows? of dS|softmax|shift"
FAILS = ('test_predict_dk_sum',)
CODE = '''# Your prediction: "zero", "the sum of dQ" or "it depends on the inputs"
prediction_dk_sum = "it depends on the inputs"
'''
