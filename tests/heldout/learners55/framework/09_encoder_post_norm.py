NOTEBOOK = '09_transformer'
CELL = 'TransformerEncoderLayer'
MISTAKE = "Writes the post-norm layer (nn.TransformerEncoderLayer's default norm_first=False): LN(X + Sublayer(X)) instead of X + Sublayer(LN(X))."
NAMED_IF = 'post[- ]?norm|pre[- ]?norm|norm_first|after the (residual|addition|sum)|before the (sublayer|attention)|normali[sz]es? the (sum|output|stream)'
CODE = '''class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)

    def forward(self, X, mask=None):
        m = None if mask is None else mask[:, None, None, :]
        z, w = self.self_attn(X, X, m)
        X = self.norm1(X + z)
        X = self.norm2(X + self.linear2(torch.relu(self.linear1(X))))
        return X, w
'''
