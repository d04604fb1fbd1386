NOTEBOOK = '09_transformer'
CELL = 'TransformerEncoderLayer'
MISTAKE = "Passes ~mask as a key_padding_mask would need (True = padding), though the course's attention reads True = may attend."
NAMED_IF = 'invert|opposite|revers|negat|flip|complement|~ ?mask|true ?(=|means|marks)? ?(blocked|masked|ignored|not allowed)|blocked|convention'
CODE = '''class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)

    def forward(self, X, mask=None):
        m = None if mask is None else (~mask)[:, None, None, :]
        h = self.norm1(X)
        z, w = self.self_attn(h, h, m)
        X = X + z
        X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, w
'''
