NOTEBOOK = '10_attention_on_images'
CELL = 'ChannelAttention'
MISTAKE = 'Gates with a softmax over the channels instead of an independent sigmoid per channel.'
NAMED_IF = 'sigmoid|softmax|own gate|compete|sum to|independent'
CODE = '''class ChannelAttention(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        Cr = max(1, channels // reduction)
        self.fc1 = nn.Linear(channels, Cr)
        self.fc2 = nn.Linear(Cr, channels)

    def forward(self, X):
        z = X.mean(dim=(-2, -1))
        s = torch.softmax(self.fc2(torch.relu(self.fc1(z))), dim=-1)
        return X * s[..., None, None], s
'''
