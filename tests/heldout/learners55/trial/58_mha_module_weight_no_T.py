NOTEBOOK = '05_multi_head_attention'
CELL = 'mha_module'
MISTAKE = 'Multiplies by layer.weight directly (X @ weight) instead of calling the layer, so the matrices are transposed and the biases are dropped.'
NAMED_IF = 'transpos|weight\\.T|\\.T\\b|bias|nn\\.Linear|call'
CODE = '''class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, X_q, X_kv, mask=None):
        Q = at.split_heads(X_q @ self.W_q.weight, self.num_heads)
        K = at.split_heads(X_kv @ self.W_k.weight, self.num_heads)
        V = at.split_heads(X_kv @ self.W_v.weight, self.num_heads)
        Z, A = at.scaled_dot_product_attention(Q, K, V, mask)
        return at.merge_heads(Z) @ self.W_o.weight, A
'''
