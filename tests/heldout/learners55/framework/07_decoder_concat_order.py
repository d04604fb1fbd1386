NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AttentionDecoder'
MISTAKE = 'Concatenates in the order of the PyTorch seq2seq tutorial, [embedding; context; state], instead of [s_t; c_t; e_t] which self.out expects.'
NAMED_IF = 'order|concat|\\bcat\\b|\\[s_t; ?c_t; ?e_t\\]|swap|side by side'
CODE = '''class AttentionDecoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_dim, key_dim, attention):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRUCell(emb_dim, hidden_dim)
        self.attention = attention
        self.out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)

    def step(self, prev_token, hidden, encoder_outputs, src_mask):
        e = self.embedding(prev_token)
        h = self.gru(e, hidden)
        context, weights = self.attention(h, encoder_outputs, src_mask)
        logits = self.out(torch.cat([e, context, h], dim=-1))
        return logits, h, weights
'''
