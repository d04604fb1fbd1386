NOTEBOOK = '09_transformer'
CELL = 'TransformerEncoderLayer'
MISTAKE = "Passes ~mask (torch's key_padding_mask convention, True = pad) to the course's attention, whose mask means True = may attend, so the layer attends only to the padding."
NAMED_IF = r"invert|revers|flip|opposite|the other way|~ ?mask|key_padding_mask|True.{0,40}(as|means|=|for) (padding|masked|blocked)"
CODE = '''class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)

    def forward(self, X, mask=None):
        pad = None if mask is None else (~mask)[:, None, None, :]   # True where padding
        h = self.norm1(X)
        Z, weights = self.self_attn(h, h, pad)
        X = X + Z
        X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, weights
'''
