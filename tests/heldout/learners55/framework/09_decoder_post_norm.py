NOTEBOOK = '09_transformer'
CELL = 'TransformerDecoderLayer'
MISTAKE = "Writes the post-norm decoder layer (nn.TransformerDecoderLayer's default norm_first=False) instead of pre-norm."
NAMED_IF = 'post[- ]?norm|pre[- ]?norm|norm_first|after the (residual|addition|sum)|before the (sublayer|attention)|normali[sz]es? the (sum|output|stream)'
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
        Lt = X.shape[1]
        causal = at.causal_mask(Lt, Lt)
        z, sw = self.self_attn(X, X, causal)
        X = self.norm1(X + z)
        mm = None if memory_mask is None else memory_mask[:, None, None, :]
        c, cw = self.cross_attn(X, memory, mm)
        X = self.norm2(X + c)
        X = self.norm3(X + self.linear2(torch.relu(self.linear1(X))))
        return X, sw, cw
'''
