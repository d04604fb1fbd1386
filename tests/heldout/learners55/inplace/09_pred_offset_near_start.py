NOTEBOOK = '09_transformer'
CELL = 'predict_offset_dot'
MISTAKE = 'Predicts that PE_3 . PE_10 is larger (near the start); the dot product depends only on the offset, so they are equal.'
NAMED_IF = r"offset|relative|only (on )?(the )?(difference|distance)|cos|equal|depends only|same (offset|distance)"
FAILS = ('test_predict_offset_dot',)
CODE = '''# Your prediction: "PE_3 · PE_10", "PE_40 · PE_47" or "equal"
prediction_offset_dot = "PE_3 · PE_10"
'''
