NOTEBOOK = '10_attention_on_images'
CELL = 'predict_receptive_field'
MISTAKE = 'Predicts 9, the view of one 3x3 convolution; two stacked see a 5x5 = 25 neighbourhood.'
NAMED_IF = '\\b25\\b|5 ?[x×] ?5|two (layers|convolutions)|stack|second|widen'
CODE = '''# Your prediction: a number of pixels (out of 256)
prediction_receptive_field = 9
'''
FAILS = ('test_predict_receptive_field',)
