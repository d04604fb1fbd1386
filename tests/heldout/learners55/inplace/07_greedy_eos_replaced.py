NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'greedy_decode'
MISTAKE = "Updates `done` in place before substituting PAD, so each sentence's own EOS is replaced by PAD."
NAMED_IF = r"EOS (is |was )?(not )?kept|keep (the |its )?EOS|EOS[^.]{0,40}(replaced|missing|dropped|lost|overwritten)|PAD instead of EOS|(missing|no) EOS"
CODE = '''def greedy_decode(model, src, src_mask, max_len):
    with torch.no_grad():
        enc, hidden = model.encode(src, src_mask)
        tok = torch.full((src.shape[0],), BOS, dtype=torch.long)
        done = torch.zeros(src.shape[0], dtype=torch.bool)
        toks, ws = [], []
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(tok, hidden, enc, src_mask)
            tok = logits.argmax(-1)
            done |= tok == EOS
            tok = torch.where(done, torch.full_like(tok, PAD), tok)
            w = w.masked_fill(done[:, None], 0.0)
            toks.append(tok); ws.append(w)
            if done.all():
                break
        return torch.stack(toks, 1), torch.stack(ws, 1)
'''
