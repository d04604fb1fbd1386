NOTEBOOK = '09_transformer'
CELL = 'TransformerDecoderLayer'
MISTAKE = "adds the feed-forward output to X1 (before the cross-attention) instead of to X2, dropping the cross-attention's residual"
NAMED_IF = 'residual|X_?2|X_?1|skip|cross.?attention|stream'
CODE = '''class TransformerDecoderLayer(nn.Module):
    """A pre-norm Transformer decoder layer."""

    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.cross_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.norm3 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)

    def forward(self, X, memory, memory_mask=None):
        Lt = X.size(1)
        causal = at.causal_mask(Lt, Lt)
        q = self.norm1(X)
        sa, sw = self.self_attn(q, q, causal)
        X1 = X + sa
        src = memory_mask[:, None, None, :] if memory_mask is not None else None
        ca, cw = self.cross_attn(self.norm2(X1), memory, src)
        X2 = X1 + ca
        out = X1 + self.linear2(torch.relu(self.linear1(self.norm3(X2))))
        return out, sw, cw
'''
