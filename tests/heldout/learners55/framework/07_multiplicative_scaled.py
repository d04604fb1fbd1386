NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'MultiplicativeAttention'
MISTAKE = "Divides the scores by sqrt(Dq) out of Transformer habit, where Luong's scores are unscaled."
NAMED_IF = 'scal|sqrt|√'
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
        scores = (k @ query.unsqueeze(-1)).squeeze(-1) / query.shape[-1] ** 0.5
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
'''
