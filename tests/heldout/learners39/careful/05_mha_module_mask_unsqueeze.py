NOTEBOOK = "05_multi_head_attention"
CELL = "mha_module"
MISTAKE = "Unsqueezes the mask at dim 1 for the heads even though the mask is already broadcastable to (B, H, Lq, Lk), so a (B, 1, 1, Lk) padding mask becomes 5-D and broadcasts wrongly."
NAMED_IF = r"mask.{0,60}(unsqueez|broadcast|dim|shape|axis)|(unsqueez|broadcast).{0,60}mask"
CODE = '''
class MultiHeadAttention(nn.Module):
    """Multi-head attention with four nn.Linear(d_model, d_model) projections."""

    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.d_model = d_model
        self.num_heads = num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, X_q, X_kv, mask=None):
        """(B, Lq, D), (B, Lk, D) -> (output (B, Lq, D), weights (B, H, Lq, Lk))."""
        Q = at.split_heads(self.W_q(X_q), self.num_heads)
        K = at.split_heads(self.W_k(X_kv), self.num_heads)
        V = at.split_heads(self.W_v(X_kv), self.num_heads)
        if mask is not None:
            mask = mask.unsqueeze(1)        # add the head axis
        out, weights = at.scaled_dot_product_attention(Q, K, V, mask)
        return self.W_o(at.merge_heads(out)), weights
'''
