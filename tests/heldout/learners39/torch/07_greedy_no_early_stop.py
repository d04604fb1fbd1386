NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'greedy_decode'
MISTAKE = 'Always runs all max_len steps (pads after EOS correctly) but never stops once every sentence has produced EOS, so T is max_len instead of the step of the last EOS.'
NAMED_IF = r"stop|early|every sentence (has )?(ended|finished|produced)|too many (steps|columns)|extra (steps|columns)|T ?<= ?max_len|last EOS"
CODE = '''def greedy_decode(model, src, src_mask, max_len):
    with torch.no_grad():
        enc, hidden = model.encode(src, src_mask)
        B = src.size(0)
        prev = torch.full((B,), BOS, dtype=torch.long)
        finished = torch.zeros(B, dtype=torch.bool)
        tokens, weights = [], []
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(prev, hidden, enc, src_mask)
            nxt = logits.argmax(dim=-1)
            nxt = torch.where(finished, torch.full_like(nxt, PAD), nxt)
            w = w.masked_fill(finished.unsqueeze(1), 0.0)
            tokens.append(nxt)
            weights.append(w)
            finished |= nxt == EOS
            prev = nxt
        return torch.stack(tokens, dim=1), torch.stack(weights, dim=1)
'''
