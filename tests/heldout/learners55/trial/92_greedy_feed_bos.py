NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'greedy_decode'
MISTAKE = 'Feeds BOS as the input at every step instead of the argmax word of the previous step.'
NAMED_IF = 'feed|next input|argmax|previous (word|token)|BOS|input'
CODE = '''def greedy_decode(model, src, src_mask, max_len):
    with torch.no_grad():
        enc, hidden = model.encode(src, src_mask)
        B = src.shape[0]
        prev = torch.full((B,), BOS, dtype=torch.long)
        done = torch.zeros(B, dtype=torch.bool)
        toks, ws = [], []
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(prev, hidden, enc, src_mask)
            tok = logits.argmax(dim=-1)
            tok = torch.where(done, torch.full_like(tok, PAD), tok)
            w = w.masked_fill(done.unsqueeze(1), 0.0)
            toks.append(tok); ws.append(w)
            done = done | (tok == EOS)
            if done.all():
                break
        return torch.stack(toks, 1), torch.stack(ws, 1)
'''
