NOTEBOOK = '10_attention_on_images'
CELL = 'predict_receptive_field'
MISTAKE = 'Predicts 9 (one 3x3 convolution); two stacked ones see a 5x5 neighbourhood, 25 pixels.'
NAMED_IF = r"5 ?[x×] ?5|\b25\b|two (layers|convolutions)|stack|second layer|widen"
FAILS = ('test_predict_receptive_field',)
CODE = '''# Your prediction: a number of pixels (out of 256)
prediction_receptive_field = 9
'''
