NOTEBOOK = '09_transformer'
CELL = 'TransformerDecoderLayer'
MISTAKE = 'uses the transposed causal mask (upper triangle: each token sees the future, not the past)'
NAMED_IF = 'causal|future|transpos|upper|lower|triang|j ?<= ?i|past'
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
        Lt = X.shape[1]
        h = self.norm1(X)
        Z, sw = self.self_attn(h, h, at.causal_mask(Lt, Lt).T)
        X1 = X + Z
        mm = None if memory_mask is None else memory_mask[:, None, None, :]
        Z2, cw = self.cross_attn(self.norm2(X1), memory, mm)
        X2 = X1 + Z2
        return X2 + self.linear2(torch.relu(self.linear1(self.norm3(X2)))), sw, cw
'''
