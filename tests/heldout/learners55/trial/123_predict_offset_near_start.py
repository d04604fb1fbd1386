NOTEBOOK = '09_transformer'
CELL = 'predict_offset_dot'
MISTAKE = 'Predicts PE_3 . PE_10 is larger; the dot product depends only on the offset (7 in both), so they are equal.'
NAMED_IF = 'offset|equal|difference|only on|cos'
CODE = '''# Your prediction: "PE_3 · PE_10", "PE_40 · PE_47" or "equal"
prediction_offset_dot = "PE_3 · PE_10"
'''
FAILS = ('test_predict_offset_dot',)
