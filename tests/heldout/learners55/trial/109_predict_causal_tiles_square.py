NOTEBOOK = '08_efficient_attention'
CELL = 'predict_causal_tiles'
MISTAKE = 'Counts the triangle of a 6 x 6 grid (21) as if there were as many query tiles as key tiles.'
NAMED_IF = '\\b15\\b|query tiles?|five|5 query|extra (key )?tiles?|columns? (beyond|past)|L_?q|48|40'
CODE = '''# Your prediction: a whole number
prediction_causal_tiles = 21
'''
FAILS = ('test_predict_causal_tiles',)
