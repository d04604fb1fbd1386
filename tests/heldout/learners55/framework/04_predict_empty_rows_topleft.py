NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'predict_empty_rows'
MISTAKE = "Thinks of the causal mask as top-left aligned (SDPA's is_causal habit), so predicts no empty rows for the bottom-right mask."
NAMED_IF = 'bottom[- ]right|top[- ]left|align|more queries than keys|Lq ?> ?Lk|i ?\\+ ?Lk ?- ?Lq|negative'
FAILS = ('test_predict_empty_rows',)
CODE = '''# Your prediction: a set of row indices, e.g. {0, 4}, or set()
prediction_empty_rows = set()
'''
