NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'predict_first_output'
MISTAKE = 'Predicts the first output depends on q_0 and k_0; the factor phi(q_0).phi(k_0) cancels, leaving v_0.'
NAMED_IF = 'cancel|v_0|own value|ratio|single key|only one|itself'
CODE = '''# Your prediction: "v_0", "zero", "the mean of all the values" or "it depends on q_0 and k_0"
prediction_first_output = "it depends on q_0 and k_0"
'''
FAILS = ('test_predict_first_output',)
