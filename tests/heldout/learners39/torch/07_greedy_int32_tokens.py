NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'greedy_decode'
MISTAKE = 'Preallocates the token buffer with dtype=torch.int (int32), so the returned tokens are int32, not int64.'
NAMED_IF = r"int64|int32|dtype|torch\.long|\blong\b"
CODE = '''def greedy_decode(model, src, src_mask, max_len):
    B, Ls = src.shape
    with torch.no_grad():
        enc, hidden = model.encode(src, src_mask)
        tokens = torch.full((B, max_len), PAD, dtype=torch.int)
        weights = torch.zeros(B, max_len, Ls, dtype=enc.dtype)
        prev = torch.full((B,), BOS, dtype=torch.long)
        done = torch.zeros(B, dtype=torch.bool)
        T = 0
        for t in range(max_len):
            logits, hidden, w = model.decoder.step(prev, hidden, enc, src_mask)
            nxt = logits.argmax(-1)
            alive = ~done
            tokens[alive, t] = nxt[alive].int()
            weights[alive, t] = w[alive]
            T = t + 1
            done = done | (nxt == EOS)
            prev = nxt
            if bool(done.all()):
                break
        return tokens[:, :T], weights[:, :T]
'''
FAIR = "COURSE.md's Types rule asks a torch exercise for a tensor and integer ids as integers without fixing the width (as float32 is fair where float64 is stated), and int32 tokens hold exactly the same ids, so they decode, compare with EOS and index embeddings identically."
