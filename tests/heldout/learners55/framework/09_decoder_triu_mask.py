NOTEBOOK = '09_transformer'
CELL = 'TransformerDecoderLayer'
MISTAKE = "Builds the causal mask as generate_square_subsequent_mask does, torch.triu(..., diagonal=1) with True above the diagonal, meant as 'blocked', and passes it to attention that reads True = may attend."
NAMED_IF = 'invert|opposite|revers|negat|flip|complement|~ ?mask|true ?(=|means|marks)? ?(blocked|masked|ignored|not allowed)|blocked|convention|upper|future|later positions|above the diagonal'
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
        z, sw = self.self_attn(h, h, causal)
        X = X + z
        mm = None if memory_mask is None else memory_mask[:, None, None, :]
        c, cw = self.cross_attn(self.norm2(X), memory, mm)
        X = X + c
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, sw, cw
'''
