NOTEBOOK = '03_self_attention'
CELL = 'predict_parameter_count'
MISTAKE = "Counts nn.Linear's default biases (90,300) although the layer has no biases."
NAMED_IF = 'bias'
FAILS = ('test_predict_parameter_count',)
CODE = '''# Your prediction: a number
prediction_parameter_count = 90300
'''
