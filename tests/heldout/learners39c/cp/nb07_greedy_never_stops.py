NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'greedy_decode'
MISTAKE = 'always runs max_len steps: does not stop once every sentence has produced EOS'
NAMED_IF = 'stop|early|every sentence|all.{0,20}EOS|max_len|length|\\bT\\b|steps'
CODE = '''def greedy_decode(model, src, src_mask, max_len):
    """Translate a batch greedily."""
    with torch.no_grad():
        enc, h = model.encode(src, src_mask)
        B = src.size(0)
        cur = torch.full((B,), BOS, dtype=torch.long)
        fin = torch.zeros(B, dtype=torch.bool)
        T = []; A = []
        for _ in range(max_len):
            logits, h, w = model.decoder.step(cur, h, enc, src_mask)
            nxt = logits.argmax(-1)
            nxt = torch.where(fin, torch.full_like(nxt, PAD), nxt)
            w = w.masked_fill(fin[:, None], 0.0)
            T.append(nxt); A.append(w)
            fin = fin | (nxt == EOS)
            cur = nxt
        return torch.stack(T, 1), torch.stack(A, 1)
'''
