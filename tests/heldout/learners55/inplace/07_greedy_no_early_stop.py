NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'greedy_decode'
MISTAKE = 'Always runs max_len steps, never stopping once every sentence has produced EOS.'
NAMED_IF = r"\bstop|max_len|T ?<=|early|every sentence (has )?(finished|produced)|too many (steps|columns)|shape|length|\bT\b"
CODE = '''def greedy_decode(model, src, src_mask, max_len):
    with torch.no_grad():
        enc, hidden = model.encode(src, src_mask)
        tok = torch.full((src.shape[0],), BOS, dtype=torch.long)
        done = torch.zeros(src.shape[0], dtype=torch.bool)
        toks, ws = [], []
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(tok, hidden, enc, src_mask)
            tok = logits.argmax(-1)
            tok = torch.where(done, torch.full_like(tok, PAD), tok)
            w = w.masked_fill(done[:, None], 0.0)
            toks.append(tok); ws.append(w)
            done |= tok == EOS
        return torch.stack(toks, 1), torch.stack(ws, 1)
'''
