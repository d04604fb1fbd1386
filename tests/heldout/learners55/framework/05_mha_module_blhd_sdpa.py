NOTEBOOK = '05_multi_head_attention'
CELL = 'mha_module'
MISTAKE = 'Splits the heads with view(B, L, H, Dh) (the JAX/flash-attn layout) and hands that to attention, which treats L as a batch axis and attends over the heads.'
NAMED_IF = '\\(B, ?L, ?H, ?Dh\\)|layout|transpos|head axis|over (the )?heads|axes|swap|token axis'
CODE = '''class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, X_q, X_kv, mask=None):
        B, Lq, D = X_q.shape
        Lk = X_kv.shape[1]
        H = self.num_heads
        Q = self.W_q(X_q).view(B, Lq, H, D // H)     # (B, Lq, H, Dh)
        K = self.W_k(X_kv).view(B, Lk, H, D // H)    # (B, Lk, H, Dh)
        V = self.W_v(X_kv).view(B, Lk, H, D // H)
        out, w = at.scaled_dot_product_attention(Q, K, V, mask)
        return self.W_o(out.reshape(B, Lq, D)), w
'''
