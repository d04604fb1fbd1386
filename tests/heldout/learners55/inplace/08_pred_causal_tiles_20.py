NOTEBOOK = '08_efficient_attention'
CELL = 'predict_causal_tiles'
MISTAKE = 'Predicts 20 tiles (counts the whole last key-tile column too); the causal version computes 15.'
NAMED_IF = r"\b15\b|diagonal|skip|above|i1|n\(n ?\+ ?1\)"
FAILS = ('test_predict_causal_tiles',)
CODE = '''# Your prediction: a whole number
prediction_causal_tiles = 20
'''
