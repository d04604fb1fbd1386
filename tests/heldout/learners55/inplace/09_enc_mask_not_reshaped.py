NOTEBOOK = '09_transformer'
CELL = 'TransformerEncoderLayer'
MISTAKE = 'Passes the (B, L) padding mask to the attention unreshaped, so it does not broadcast as (B, 1, 1, L).'
NAMED_IF = r"mask[^.]{0,40}(shape|reshap|broadcast|None)|\[:, ?None, ?None|padding|\(B, ?1, ?1, ?L\)|\(B, ?L\)"
CODE = '''class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)

    def forward(self, X, mask=None):
        h = self.norm1(X)
        Z, A = self.self_attn(h, h, mask)
        X = X + Z
        X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, A
'''
