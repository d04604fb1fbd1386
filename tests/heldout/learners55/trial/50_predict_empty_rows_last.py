NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'predict_empty_rows'
MISTAKE = 'Predicts the last rows {3, 4} are empty; with the bottom-right alignment it is the first rows {0, 1} that see no key.'
NAMED_IF = 'bottom[- ]right|i ?\\+ ?L_?k ?- ?L_?q|first|top|early|negative'
CODE = '''# Your prediction: a set of row indices, e.g. {0, 4}, or set()
prediction_empty_rows = {3, 4}
'''
FAILS = ('test_predict_empty_rows',)
