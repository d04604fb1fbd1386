NOTEBOOK = "13_attention_variants"
CELL = 'sink_window_keys'
MISTAKE = 'Counts the sinks inside the window: keeps the first n_sinks and only the last window - n_sinks tokens.'
NAMED_IF = r"inside the window|part of the window|within the window|window ?- ?n_sinks|counted (in|within|as part)|sinks .{0,30}(count|includ)\w* .{0,20}window|fewer .{0,20}window|window too short|short of the window"
CODE = '''
def sink_window_keys(Lk, n_sinks, window):
    """The key indices a sink-plus-window cache keeps."""
    sinks = set(range(min(n_sinks, Lk)))
    recent = set(range(max(Lk - (window - n_sinks), 0), Lk))
    return np.array(sorted(sinks | recent), dtype=int)
'''
