NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AttentionDecoder'
MISTAKE = 'queries the attention with the previous state s_{t-1} (Bahdanau order) instead of the new state s_t'
NAMED_IF = '(old|previous|prior|stale) (state|hidden)|s_\\{?t ?- ?1|new state|before the GRU|Bahdanau|query'
CODE = '''class AttentionDecoder(nn.Module):
    """A GRU decoder that attends to the encoder outputs at every step."""

    def __init__(self, vocab_size, emb_dim, hidden_dim, key_dim, attention):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRUCell(emb_dim, hidden_dim)
        self.attention = attention
        self.out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)

    def step(self, prev_token, hidden, encoder_outputs, src_mask):
        e = self.embedding(prev_token)
        c, w = self.attention(hidden, encoder_outputs, src_mask)
        hidden = self.gru(e, hidden)
        return self.out(torch.cat([hidden, c, e], dim=-1)), hidden, w
'''
