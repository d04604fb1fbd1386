NOTEBOOK = '13_attention_variants'
CELL = 'predict_topk_full'
MISTAKE = 'Predicts top-k with k = Lk is sharper than dense; it keeps every key, so it is equal to dense attention.'
NAMED_IF = 'equal|every key|same|dense|all (the )?keys'
CODE = '''# Your prediction: "equal to dense attention", "sharper than dense attention" or "flatter than dense attention"
prediction_topk_full = "sharper than dense attention"
'''
FAILS = ('test_predict_topk_full',)
