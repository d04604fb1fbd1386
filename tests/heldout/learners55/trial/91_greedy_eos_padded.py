NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'greedy_decode'
MISTAKE = 'Marks a sentence finished before padding, so its EOS itself is replaced by PAD.'
NAMED_IF = 'EOS|keep|kept|drop|lost|replac'
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
            done = done | (tok == EOS)
            tok = torch.where(done, torch.full_like(tok, PAD), tok)
            w = w.masked_fill(done.unsqueeze(1), 0.0)
            toks.append(tok); ws.append(w)
            prev = tok
            if done.all():
                break
        return torch.stack(toks, 1), torch.stack(ws, 1)
'''
