NOTEBOOK = '05_multi_head_attention'
CELL = 'mha_module'
MISTAKE = "Creates the four layers with nn.Linear's default bias=True, ignoring the bias argument."
NAMED_IF = 'bias'
CODE = '''class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)

    def forward(self, X_q, X_kv, mask=None):
        Q = at.split_heads(self.W_q(X_q), self.num_heads)
        K = at.split_heads(self.W_k(X_kv), self.num_heads)
        V = at.split_heads(self.W_v(X_kv), self.num_heads)
        out, w = at.scaled_dot_product_attention(Q, K, V, mask)
        return self.W_o(at.merge_heads(out)), w
'''
