NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'MultiplicativeAttention'
MISTAKE = "Passes ~mask to the masked softmax, converting to nn.MultiheadAttention's key_padding_mask convention where the course's mask already means True = real word."
NAMED_IF = 'invert|opposite|revers|negat|flip|complement|~ ?mask|true ?(=|means|marks)? ?(blocked|masked|ignored|not allowed)|blocked|convention'
CODE = '''class MultiplicativeAttention(nn.Module):
    def __init__(self, query_dim, key_dim, kind="general"):
        super().__init__()
        if kind not in ("dot", "general"):
            raise ValueError(f"kind: expected 'dot' or 'general', got {kind!r}")
        if kind == "dot" and query_dim != key_dim:
            raise ValueError(f"kind='dot' needs query_dim == key_dim, got {query_dim} and {key_dim}")
        self.kind = kind
        if kind == "general":
            self.W = nn.Linear(key_dim, query_dim, bias=False)

    def forward(self, query, keys, mask=None):
        k = self.W(keys) if self.kind == "general" else keys
        scores = (k @ query.unsqueeze(-1)).squeeze(-1)
        weights = at.masked_softmax(scores, None if mask is None else ~mask)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
'''
