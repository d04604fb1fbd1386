NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'predict_unflipped_keys'
MISTAKE = 'Reads attn_mask as True = blocked but key_padding_mask as True = keep, so predicts query 0 sees the real keys other than key 0.'
NAMED_IF = 'key_padding_mask|padding mask|both (masks )?(read|are read|mean|use)|key 4|real keys?[^.]{0,30}blocked|True[^.]{0,30}(blocked|ignore|not allowed)'
FAILS = ('test_predict_unflipped_keys',)
CODE = '''# Your prediction: a set of key indices, e.g. {0, 2}, or set()
prediction_unflipped_keys = {1, 2, 3}
'''
