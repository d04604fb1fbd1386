NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'MultiplicativeAttention'
MISTAKE = 'Reassigns keys = self.W(keys) and then builds the context from that reassigned name, so the context is a sum of the projected keys.'
NAMED_IF = r"project|original keys|W\(keys\)|context[^.]{0,40}(keys|\bW\b)|image under|shape|\(B, ?Dk\)"
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
        if self.kind == "general":
            keys = self.W(keys)
        scores = (keys @ query.unsqueeze(-1)).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
'''
