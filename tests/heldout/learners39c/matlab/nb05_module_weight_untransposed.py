NOTEBOOK = '05_multi_head_attention'
CELL = 'mha_module'
MISTAKE = 'multiplies by layer.weight directly (X @ W.weight) instead of calling the layer (X @ weight.T + bias)'
NAMED_IF = 'transpos|weight\\.T|W\\^?T|\\.weight|bias|calling the layer'
CODE = '''class MultiHeadAttention(nn.Module):
    """Multi-head attention with four nn.Linear(d_model, d_model) projections."""

    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)

    def _proj(self, layer, X):
        Y = X @ layer.weight
        if layer.bias is not None:
            Y = Y + layer.bias
        return Y

    def forward(self, X_q, X_kv, mask=None):
        H = self.num_heads
        Q = at.split_heads(self._proj(self.W_q, X_q), H)
        K = at.split_heads(self._proj(self.W_k, X_kv), H)
        V = at.split_heads(self._proj(self.W_v, X_kv), H)
        Z, A = at.scaled_dot_product_attention(Q, K, V, mask)
        return self._proj(self.W_o, at.merge_heads(Z)), A
'''
