NOTEBOOK = '09_transformer'
CELL = 'TransformerDecoderLayer'
MISTAKE = 'Builds the causal mask torch-style as triu(ones, diagonal=1) (True = blocked) and passes it to a mask where True = may attend, so each position sees only the future.'
NAMED_IF = r"future|triu|upper|invert|revers|flip|opposite|j ?> ?i|True.{0,30}(means|=|as) (masked|blocked)|peek"
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
        causal = torch.triu(torch.ones(Lt, Lt, dtype=torch.bool), diagonal=1)
        h = self.norm1(X)
        Z, self_w = self.self_attn(h, h, causal)
        X = X + Z
        mm = None if memory_mask is None else memory_mask[:, None, None, :]
        C, cross_w = self.cross_attn(self.norm2(X), memory, mm)
        X = X + C
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_w, cross_w
'''
