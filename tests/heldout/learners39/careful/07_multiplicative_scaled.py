NOTEBOOK = "07_rnn_translation_with_attention"
CELL = "MultiplicativeAttention"
MISTAKE = "Divides the scores by sqrt(Dq) as in scaled dot-product attention, although Luong's scores have no scaling."
NAMED_IF = r"sqrt|√|scal"
CODE = '''
class MultiplicativeAttention(nn.Module):
    """Luong's multiplicative attention: score(q, k) = qᵀ k ("dot") or qᵀ W k ("general")."""

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
        projected = keys if self.kind == "dot" else self.W(keys)                    # (B, Lk, Dq)
        scores = torch.bmm(projected, query.unsqueeze(-1)).squeeze(-1)              # (B, Lk)
        scores = scores / math.sqrt(query.shape[-1])
        weights = at.masked_softmax(scores, mask)
        context = torch.bmm(weights.unsqueeze(1), keys).squeeze(1)
        return context, weights
'''
