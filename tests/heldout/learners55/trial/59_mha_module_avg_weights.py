NOTEBOOK = '05_multi_head_attention'
CELL = 'mha_module'
MISTAKE = "Averages the weights over the heads (like nn.MultiheadAttention's default) and returns (B, Lq, Lk) instead of (B, H, Lq, Lk)."
NAMED_IF = 'average|mean|head axis|per head|\\(B, ?H|shape|H, ?Lq'
CODE = '''class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, X_q, X_kv, mask=None):
        Q = at.split_heads(self.W_q(X_q), self.num_heads)
        K = at.split_heads(self.W_k(X_kv), self.num_heads)
        V = at.split_heads(self.W_v(X_kv), self.num_heads)
        Z, A = at.scaled_dot_product_attention(Q, K, V, mask)
        return self.W_o(at.merge_heads(Z)), A.mean(dim=1)
'''
