NOTEBOOK = "07_rnn_translation_with_attention"
CELL = "AttentionDecoder"
MISTAKE = "Queries attention with the previous state s_{t-1} (Bahdanau's order) instead of the new state s_t from the GRU."
NAMED_IF = r"previous state|s_\{?t-1|old (state|hidden)|new state|s_t\b|before the GRU|Bahdanau|Luong"
CODE = '''
class AttentionDecoder(nn.Module):
    """A GRU decoder that attends to the encoder outputs at every step."""

    def __init__(self, vocab_size, emb_dim, hidden_dim, key_dim, attention):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRUCell(emb_dim, hidden_dim)
        self.attention = attention
        self.out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)

    def step(self, prev_token, hidden, encoder_outputs, src_mask):
        e = self.embedding(prev_token)                                   # (B, E)
        context, weights = self.attention(hidden, encoder_outputs, src_mask)
        s = self.gru(e, hidden)                                          # (B, H)
        logits = self.out(torch.cat([s, context, e], dim=-1))
        return logits, s, weights
'''
