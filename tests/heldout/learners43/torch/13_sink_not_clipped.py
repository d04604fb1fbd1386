NOTEBOOK = "13_attention_variants"
CELL = 'sink_window_keys'
MISTAKE = 'Does not clip the sinks at Lk: when the cache holds fewer than n_sinks tokens it returns indices that do not exist.'
NAMED_IF = r"beyond|past the end|out of range|>= ?Lk|more than there are|exceed|not (yet )?exist|no such (key|token)|than (the cache|Lk|there are tokens)|nonexist|clip|clamp"
CODE = '''
def sink_window_keys(Lk, n_sinks, window):
    """The key indices a sink-plus-window cache keeps."""
    sinks = torch.arange(n_sinks)
    recent = torch.arange(max(Lk - window, 0), Lk)
    return torch.unique(torch.cat([sinks, recent])).numpy()
'''
