NOTEBOOK = '09_transformer'
CELL = 'TransformerDecoderLayer'
MISTAKE = "Runs the decoder's self-attention with no causal mask."
NAMED_IF = r"causal|future|peek|later (position|word|token)s?|j ?<= ?i"
CODE = '''class TransformerDecoderLayer(nn.Module):
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
        h = self.norm1(X)
        Z, sw = self.self_attn(h, h, None)
        X = X + Z
        mm = None if memory_mask is None else memory_mask[:, None, None, :]
        Z, cw = self.cross_attn(self.norm2(X), memory, mm)
        X = X + Z
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, sw, cw
'''
