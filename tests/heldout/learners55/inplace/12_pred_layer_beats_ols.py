NOTEBOOK = '12_what_attention_learns'
CELL = 'predict_beats_least_squares'
MISTAKE = "Predicts 'the trained layer'; with noiseless targets and N = 20 > d, least squares is exact."
NAMED_IF = r"exact|solve|one (gradient )?step|noiseless|least squares"
FAILS = ('test_predict_beats_least_squares',)
CODE = '''# Your prediction: "the trained layer", "least squares" or "the same"
prediction_beats_least_squares = "the trained layer"
'''
