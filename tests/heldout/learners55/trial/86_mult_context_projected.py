NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'MultiplicativeAttention'
MISTAKE = "For 'general' takes the context from the projected keys W(k) instead of the original keys; the shape only matched because Dq == Dk in the learner's example."
NAMED_IF = 'original keys|context|W ?\\(k|projected keys|self\\.W|keys themselves'
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
        w = at.masked_softmax(scores, mask)
        return (w.unsqueeze(1) @ k).squeeze(1), w
'''
