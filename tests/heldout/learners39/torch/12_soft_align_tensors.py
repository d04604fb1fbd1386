NOTEBOOK = '12_what_attention_learns'
CELL = 'soft_align'
MISTAKE = 'Computes the alignment with torch.softmax and returns torch tensors instead of numpy arrays.'
NAMED_IF = r"tensor|torch|ndarray|numpy|type"
CODE = '''def soft_align(A, B):
    A, B = torch.as_tensor(A), torch.as_tensor(B)
    E = torch.matmul(A, B.transpose(-2, -1))
    beta = torch.softmax(E, dim=-1) @ B
    alpha = torch.softmax(E.transpose(-2, -1), dim=-1) @ A
    return beta, alpha
'''
