NOTEBOOK = '05_multi_head_attention'
CELL = 'predict_params_h8'
MISTAKE = "Counts as Keras's MultiHeadAttention with key_dim = d_model: every head with its own full-width (D, D) query, key and value maps, so the count grows with the heads."
NAMED_IF = 'per head|each head[^.]{0,60}(own|full|whole|D ?[x×] ?D|d_model|128)|(full|whole) (width|d_model)|split|\\bDh\\b|does not (grow|change|depend)|same (count|number)|independent of (the )?(number of )?heads'
FAILS = ('test_predict_params_h8',)
CODE = '''# Your prediction: a whole number
prediction_params_h8 = 527488
'''
