NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AttentionDecoder'
MISTAKE = "Concatenates the output layer's input as [s_t; e_t; c_t] instead of the required [s_t; c_t; e_t]."
NAMED_IF = r"concatenat|torch\.cat|\border\b.{0,40}(s_t|c_t|e_t|\[)|\[s_t; ?c_t; ?e_t\]"
CODE = '''class AttentionDecoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_dim, key_dim, attention):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRUCell(emb_dim, hidden_dim)
        self.attention = attention
        self.out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)

    def step(self, prev_token, hidden, encoder_outputs, src_mask):
        emb = self.embedding(prev_token)
        hidden = self.gru(emb, hidden)
        context, weights = self.attention(hidden, encoder_outputs, src_mask)
        logits = self.out(torch.cat((hidden, emb, context), dim=1))
        return logits, hidden, weights
'''
