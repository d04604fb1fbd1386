NOTEBOOK = '08_efficient_attention'
CELL = 'predict_causal_tiles'
MISTAKE = 'Counts the tiles with the diagonal aligned bottom-right (flash-attn habit), 20 instead of the top-left count.'
NAMED_IF = 'bottom[- ]right|top[- ]left|align|offset|diagonal|Lk ?- ?Lq'
FAILS = ('test_predict_causal_tiles',)
CODE = '''# Your prediction: a whole number
prediction_causal_tiles = 20
'''
