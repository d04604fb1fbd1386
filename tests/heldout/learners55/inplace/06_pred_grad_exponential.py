NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'predict_gradient_decay'
MISTAKE = "Predicts 'exponentially' for the attention layer, as for the GRU."
NAMED_IF = r"1 ?/ ?L|path|direct|one step|share|softmax|length 1"
FAILS = ('test_predict_gradient_decay',)
CODE = '''# Your prediction: "constant", "like 1/L" or "exponentially"
prediction_gradient_decay = "exponentially"
'''
