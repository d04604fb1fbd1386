NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'greedy_decode'
MISTAKE = 'Casts the tokens to int32 (the JAX/TF default integer) instead of returning int64.'
NAMED_IF = 'int64|int32|dtype|long|type'
CODE = '''def greedy_decode(model, src, src_mask, max_len):
    with torch.no_grad():
        enc, hidden = model.encode(src, src_mask)
        B = src.shape[0]
        tok = torch.full((B,), BOS, dtype=torch.long)
        done = torch.zeros(B, dtype=torch.bool)
        toks, ws = [], []
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(tok, hidden, enc, src_mask)
            nxt = logits.argmax(dim=-1)
            nxt = torch.where(done, torch.full_like(nxt, PAD), nxt)
            w = w.masked_fill(done[:, None], 0.0)
            toks.append(nxt)
            ws.append(w)
            done = done | (nxt == EOS)
            tok = nxt
            if done.all():
                break
        return torch.stack(toks, dim=1).to(torch.int32), torch.stack(ws, dim=1)
'''
