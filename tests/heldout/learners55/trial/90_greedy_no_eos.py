NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'greedy_decode'
MISTAKE = 'Always runs max_len steps and never pads after EOS.'
NAMED_IF = 'EOS|PAD|stop|finish|ended|after'
CODE = '''def greedy_decode(model, src, src_mask, max_len):
    with torch.no_grad():
        enc, hidden = model.encode(src, src_mask)
        B = src.shape[0]
        prev = torch.full((B,), BOS, dtype=torch.long)
        toks, ws = [], []
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(prev, hidden, enc, src_mask)
            tok = logits.argmax(dim=-1)
            toks.append(tok); ws.append(w)
            prev = tok
        return torch.stack(toks, 1), torch.stack(ws, 1)
'''
