NOTEBOOK = '08_efficient_attention'
CELL = 'predict_dk_sum'
MISTAKE = 'Predicts the sum of dK equals the sum of dQ; it is zero, since adding one vector to every key shifts each row of scores by a constant.'
NAMED_IF = 'zero|shift|constant|invarian|sum(s)? to (one|1)|cancel'
CODE = '''# Your prediction: "zero", "the sum of dQ" or "it depends on the inputs"
prediction_dk_sum = "the sum of dQ"
'''
FAILS = ('test_predict_dk_sum',)
