NOTEBOOK = '03_self_attention'
CELL = 'predict_parameter_count'
MISTAKE = 'Predicts 360,000 (multiplies by the 4 words), thinking the parameters grow with the sentence length.'
NAMED_IF = r"\bL\b|length|words|(does not|doesn't|not) depend|per (token|word)|sentence|90,?000|3 ?[x×\*] ?300"
FAILS = ('test_predict_parameter_count',)
CODE = '''# Your prediction: a number
prediction_parameter_count = 360000
'''
