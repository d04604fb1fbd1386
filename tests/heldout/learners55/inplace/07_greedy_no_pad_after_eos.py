NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'greedy_decode'
MISTAKE = 'Never replaces tokens after EOS by PAD nor zeroes their weights: finished sentences keep generating.'
NAMED_IF = r"\bPAD\b|after (the |its )?EOS|finished|zero(ed)? weights|weights? (zero|0)"
CODE = '''def greedy_decode(model, src, src_mask, max_len):
    with torch.no_grad():
        enc, hidden = model.encode(src, src_mask)
        tok = torch.full((src.shape[0],), BOS, dtype=torch.long)
        done = torch.zeros(src.shape[0], dtype=torch.bool)
        toks, ws = [], []
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(tok, hidden, enc, src_mask)
            tok = logits.argmax(-1)
            toks.append(tok); ws.append(w)
            done |= tok == EOS
            if done.all():
                break
        return torch.stack(toks, 1), torch.stack(ws, 1)
'''
