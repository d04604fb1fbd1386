NOTEBOOK = '05_multi_head_attention'
CELL = 'mha_module'
MISTAKE = 'Projects with X @ layer.weight instead of calling the layer (X @ weight.T + bias), forgetting that nn.Linear stores its weight as (out, in).'
NAMED_IF = r'weight\.T|transpos|\(out, ?in\)|layout|call(ing)? the (layer|linear)'
CODE = '''class MultiHeadAttention(nn.Module):
    """Multi-head attention with four nn.Linear(d_model, d_model) projections."""

    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, X_q, X_kv, mask=None):
        """(B, Lq, D), (B, Lk, D) -> (output (B, Lq, D), weights (B, H, Lq, Lk))."""
        def proj(layer, X):
            out = X @ layer.weight
            if layer.bias is not None:
                out = out + layer.bias
            return out
        Q = at.split_heads(proj(self.W_q, X_q), self.num_heads)
        K = at.split_heads(proj(self.W_k, X_kv), self.num_heads)
        V = at.split_heads(proj(self.W_v, X_kv), self.num_heads)
        Z, A = at.scaled_dot_product_attention(Q, K, V, mask)
        return proj(self.W_o, at.merge_heads(Z)), A
'''
