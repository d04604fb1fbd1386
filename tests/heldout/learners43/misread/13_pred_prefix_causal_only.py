NOTEBOOK = "13_attention_variants"
CELL = 'predict_prefix_lm_count'
MISTAKE = "Predicts 21, the causal mask's count, forgetting that the prefix is read bidirectionally."
NAMED_IF = r"plain causal|prefix causal inside|causal (mask'?s? )?(count|alone|only)|only (the )?causal|just (the )?causal|prefix .{0,40}(bidirection|both ways|every prefix key|all prefix keys)|forg\w* the prefix|without the prefix"
FAILS = ('test_predict_prefix_lm_count',)
CODE = '''prediction_prefix_lm_count = 21
'''
