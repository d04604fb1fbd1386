NOTEBOOK = '10_attention_on_images'
CELL = 'ChannelAttention'
MISTAKE = "Gates the caller's X in place (X.mul_(s[..., None, None])) and returns it."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged"
CODE = '''class ChannelAttention(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        Cr = max(1, channels // reduction)
        self.fc1 = nn.Linear(channels, Cr)
        self.fc2 = nn.Linear(Cr, channels)

    def forward(self, X):
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(X.mean(dim=(-2, -1))))))
        X.mul_(s[..., None, None])
        return X, s
'''
