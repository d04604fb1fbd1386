NOTEBOOK = "13_attention_variants"
CELL = 'predict_topk_full'
MISTAKE = "Predicts 'sharper than dense attention' although with k = Lk nothing is dropped."
NAMED_IF = r"nothing (is )?dropped|every key (is )?kept|keeps (all|every)|k ?= ?Lk|same as dense|equal|identical|renormalis\w* .{0,30}(is|equals) the softmax|always (concentrat|sharpen)"
FAILS = ('test_predict_topk_full',)
CODE = '''prediction_topk_full = "sharper than dense attention"
'''
