NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'predict_first_output'
MISTAKE = "Predicts 'zero' for the first causal output; the phi(q_0)phi(k_0) factors cancel and it is v_0."
NAMED_IF = r"v_?0|own value|cancel|ratio|φ\(q_?0\)|phi\(q_?0\)"
FAILS = ('test_predict_first_output',)
CODE = '''# Your prediction: "v_0", "zero", "the mean of all the values" or "it depends on q_0 and k_0"
prediction_first_output = "zero"
'''
