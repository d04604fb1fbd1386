NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'predict_unflipped_keys'
MISTAKE = 'Predicts {0}, what the masks were meant to allow; nn.MultiheadAttention reads True as blocked, so query 0 sees only key 4.'
NAMED_IF = 'blocked|not allowed|ignore|opposite|invert|flip|convention|True (=|means)'
CODE = '''# Your prediction: a set of key indices, e.g. {0, 2}, or set()
prediction_unflipped_keys = {0}
'''
FAILS = ('test_predict_unflipped_keys',)
