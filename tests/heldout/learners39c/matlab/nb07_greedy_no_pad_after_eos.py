NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'greedy_decode'
MISTAKE = "keeps writing the argmax words (and their weights) after a sentence's EOS instead of PAD and zero weights"
NAMED_IF = 'PAD|pad|after (the |its )?EOS|finished|zero weights'
CODE = '''def greedy_decode(model, src, src_mask, max_len):
    """Translate a batch greedily."""
    with torch.no_grad():
        enc, hidden = model.encode(src, src_mask)
        B = src.shape[0]
        tok = torch.full((B,), BOS, dtype=torch.long)
        done = torch.zeros(B, dtype=torch.bool)
        toks, ws = [], []
        for t in range(max_len):
            logits, hidden, w = model.decoder.step(tok, hidden, enc, src_mask)
            tok = logits.argmax(dim=-1)
            toks.append(tok); ws.append(w)
            done = done | (tok == EOS)
            if done.all():
                break
        return torch.stack(toks, dim=1), torch.stack(ws, dim=1)
'''
