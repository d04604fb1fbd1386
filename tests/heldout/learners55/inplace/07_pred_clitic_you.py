NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'predict_clitic_peak'
MISTAKE = "Predicts 'you', the gold alignment; the model's peak for t' is not the gold word."
NAMED_IF = r"love|aime|next word|position|word order|explanation|not (the )?gold"
FAILS = ('test_predict_clitic_peak',)
CODE = '''# Your prediction: "I", "love" or "you"
prediction_clitic_peak = "you"
'''
