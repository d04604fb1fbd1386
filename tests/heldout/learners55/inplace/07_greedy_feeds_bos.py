NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'greedy_decode'
MISTAKE = "Stores the argmax under a new name and never feeds it back: every step's input stays BOS."
NAMED_IF = r"next input|fe(e)?d|\bBOS\b|previous (token|word)|own (best )?guess|argmax[^.]{0,40}input|input[^.]{0,40}argmax"
CODE = '''def greedy_decode(model, src, src_mask, max_len):
    with torch.no_grad():
        enc, hidden = model.encode(src, src_mask)
        tok = torch.full((src.shape[0],), BOS, dtype=torch.long)
        done = torch.zeros(src.shape[0], dtype=torch.bool)
        toks, ws = [], []
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(tok, hidden, enc, src_mask)
            nxt = logits.argmax(-1)
            nxt = torch.where(done, torch.full_like(nxt, PAD), nxt)
            w = w.masked_fill(done[:, None], 0.0)
            toks.append(nxt); ws.append(w)
            done |= nxt == EOS
            if done.all():
                break
        return torch.stack(toks, 1), torch.stack(ws, 1)
'''
