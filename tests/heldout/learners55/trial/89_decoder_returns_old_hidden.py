NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AttentionDecoder'
MISTAKE = 'Returns the previous state instead of the new one.'
NAMED_IF = 'new (state|hidden)|old (state|hidden)|previous (state|hidden)|s_t|return'
CODE = '''class AttentionDecoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_dim, key_dim, attention):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRUCell(emb_dim, hidden_dim)
        self.attention = attention
        self.out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)

    def step(self, prev_token, hidden, encoder_outputs, src_mask):
        e = self.embedding(prev_token)
        s = self.gru(e, hidden)
        c, w = self.attention(s, encoder_outputs, src_mask)
        logits = self.out(torch.cat([s, c, e], dim=-1))
        return logits, hidden, w
'''
