NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AttentionDecoder'
MISTAKE = "Queries the attention with the previous state s_{t-1} before the GRU update (Bahdanau's order) instead of the new state."
NAMED_IF = r"previous state|old state|s_?\{?t ?- ?1|new state|before (the )?GRU|Bahdanau|query (with|is|uses)|updated state"
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
        hidden = self.gru(e, hidden)
        logits = self.out(torch.cat([hidden, context, e], dim=-1))
        return logits, hidden, weights
'''
