NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'MultiplicativeAttention'
MISTAKE = "For 'general' applies self.W to the query instead of the keys, which computes q^T W^T k (W transposed) rather than q^T W k."
NAMED_IF = r"transpos|Wᵀ|W\^T|W\.T|W to the query|query through|self\.W\(query\)|W on the query|applied to the query"
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
        q = query if self.kind == "dot" else self.W(query)          # (B, D)
        scores = torch.bmm(keys, q.unsqueeze(-1)).squeeze(-1)       # (B, Lk)
        weights = at.masked_softmax(scores, mask)
        context = torch.bmm(weights.unsqueeze(1), keys).squeeze(1)
        return context, weights
'''
