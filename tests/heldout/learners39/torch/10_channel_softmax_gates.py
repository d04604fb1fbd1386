NOTEBOOK = '10_attention_on_images'
CELL = 'ChannelAttention'
MISTAKE = 'Normalises the gates with a softmax over the channels (they compete and sum to one) instead of an independent sigmoid per channel.'
NAMED_IF = r"softmax|sigmoid|sum to (one|1)|sums? to (one|1)|compete|budget|independent"
CODE = '''class ChannelAttention(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        Cr = max(1, channels // reduction)
        self.fc1 = nn.Linear(channels, Cr)
        self.fc2 = nn.Linear(Cr, channels)

    def forward(self, X):
        squeezed = X.mean(dim=(-1, -2))
        s = torch.softmax(self.fc2(torch.relu(self.fc1(squeezed))), dim=-1)
        return X * s.unsqueeze(-1).unsqueeze(-1), s
'''
