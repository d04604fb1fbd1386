NOTEBOOK = '10_attention_on_images'
CELL = 'ChannelAttention'
MISTAKE = 'Creates fc1 and fc2 without biases (bias=False, as the common PyTorch squeeze-and-excitation block does), though the contract asks for both with a bias.'
NAMED_IF = 'bias'
CODE = '''class ChannelAttention(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        Cr = max(1, channels // reduction)
        self.fc1 = nn.Linear(channels, Cr, bias=False)
        self.fc2 = nn.Linear(Cr, channels, bias=False)

    def forward(self, X):
        s = X.mean(dim=(-2, -1))
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(s))))
        return X * s[..., None, None], s
'''
