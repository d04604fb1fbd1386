NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'predict_gradient_decay'
MISTAKE = "Predicts the attention gradient falls exponentially like the GRU's; one attention layer connects the tokens directly."
NAMED_IF = 'path|direct|one step|1 ?/ ?L|weight|not exponential|length 1|shared'
CODE = '''# Your prediction: "constant", "like 1/L" or "exponentially"
prediction_gradient_decay = "exponentially"
'''
FAILS = ('test_predict_gradient_decay',)
