NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'MultiplicativeAttention'
MISTAKE = "For 'general', applies self.W to the query instead of the keys (q^T W^T k instead of q^T W k; only runs when the widths match)."
NAMED_IF = r"W[^.]{0,30}query|query[^.]{0,30}\bW\b|transpos|W\.?T|wrong side|keys? (through|under) (self\.)?W|image under"
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
        q = query
        if self.kind == "general":
            q = self.W(q)
        scores = (keys @ q.unsqueeze(-1)).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
'''
