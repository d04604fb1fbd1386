NOTEBOOK = '05_multi_head_attention'
CELL = 'mha_module'
MISTAKE = 'Creates the four layers with bias=False whatever the bias argument says.'
NAMED_IF = r"bias"
CODE = '''class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=False)
        self.W_k = nn.Linear(d_model, d_model, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)
        self.W_o = nn.Linear(d_model, d_model, bias=False)

    def forward(self, X_q, X_kv, mask=None):
        H = self.num_heads
        Q = at.split_heads(self.W_q(X_q), H)
        K = at.split_heads(self.W_k(X_kv), H)
        V = at.split_heads(self.W_v(X_kv), H)
        Z, A = at.scaled_dot_product_attention(Q, K, V, mask)
        return self.W_o(at.merge_heads(Z)), A
'''
