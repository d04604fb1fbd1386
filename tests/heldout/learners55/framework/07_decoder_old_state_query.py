NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AttentionDecoder'
MISTAKE = 'Queries attention with the previous state s_{t-1} (as in Bahdanau-style codebases) instead of the new state s_t.'
NAMED_IF = 'old|previous|prior|s_\\{?t ?- ?1|before the (gru|update|step)|new state|stale'
CODE = '''class AttentionDecoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_dim, key_dim, attention):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRUCell(emb_dim, hidden_dim)
        self.attention = attention
        self.out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)

    def step(self, prev_token, hidden, encoder_outputs, src_mask):
        e = self.embedding(prev_token)
        context, weights = self.attention(hidden, encoder_outputs, src_mask)
        h = self.gru(e, hidden)
        logits = self.out(torch.cat([h, context, e], dim=-1))
        return logits, h, weights
'''
