NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'predict_empty_rows'
MISTAKE = 'Predicts {3, 4}, thinking the extra queries at the end see nothing; with bottom-right alignment the first rows are empty ({0, 1}).'
NAMED_IF = r"\{0, ?1\}|0 and 1|first (two )?(rows|queries)|i ?\+ ?L_?k ?- ?L_?q|bottom.right|i ?- ?2"
FAILS = ('test_predict_empty_rows',)
CODE = '''# Your prediction: a set of row indices, e.g. {0, 4}, or set()
prediction_empty_rows = {3, 4}
'''
