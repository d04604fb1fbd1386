NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AttentionDecoder'
MISTAKE = 'Concatenates [c_t; s_t; e_t] instead of [s_t; c_t; e_t] (runs when the widths match).'
NAMED_IF = r"order|concat"
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
        return self.out(torch.cat([c, s, e], dim=-1)), s, w
'''
