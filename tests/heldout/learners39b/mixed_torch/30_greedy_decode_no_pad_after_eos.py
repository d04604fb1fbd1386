NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'greedy_decode'
MISTAKE = 'Stops when every sentence has produced EOS but never replaces the tokens of finished sentences by PAD nor zeroes their weights: whatever the decoder produces after EOS is kept.'
NAMED_IF = '\\bpad\\b|after (the |its )?eos|finished|ended|zero(ed)? weights|already (finished|ended)|padding'
CODE = '''\
def greedy_decode(model, src, src_mask, max_len):
    """Translate a batch greedily."""
    with torch.no_grad():
        encoder_outputs, hidden = model.encode(src, src_mask)
        B = src.shape[0]
        token = torch.full((B,), BOS, dtype=torch.long)
        finished = torch.zeros(B, dtype=torch.bool)
        tokens, weights_all = [], []
        for _ in range(max_len):
            logits, hidden, weights = model.decoder.step(token, hidden, encoder_outputs, src_mask)
            token = logits.argmax(dim=-1)                  # (B,)
            tokens.append(token)
            weights_all.append(weights)
            finished = finished | (token == EOS)
            if bool(finished.all()):
                break
        return torch.stack(tokens, dim=1), torch.stack(weights_all, dim=1)
'''
