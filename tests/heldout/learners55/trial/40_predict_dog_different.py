NOTEBOOK = '03_self_attention'
CELL = 'predict_dog_output'
MISTAKE = 'Predicts the output of dog differs between the two sentences; self-attention is permutation-equivariant, so it is the same.'
NAMED_IF = 'permut|equivarian|order|same|position'
CODE = '''# Your prediction: "the same", "different" or "depend on the weights"
prediction_dog_output = "different"
'''
FAILS = ('test_predict_dog_output',)
