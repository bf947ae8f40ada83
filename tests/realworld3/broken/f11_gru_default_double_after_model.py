"""shared helper sets the default dtype to float64 after the GRU encoder was built
source: https://github.com/pytorch/pytorch/issues/4588
reported-error: When I am creating my models on GRU, they are using DoubleTensor by default instead of tensor.cuda.Float (global DoubleTensor default set in a shared common.py)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 23
root-cause: line 36
expect: DG001
"""
import numpy as np
import torch
import torch.nn as nn


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size, n_layers=1):
        super(EncoderRNN, self).__init__()
        self.hidden_size = hidden_size
        self.n_layers = n_layers
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers)

    def forward(self, input, hidden):
        embedded = self.embedding(input).view(len(input), 1, -1)
        output, hidden = self.gru(embedded, hidden)  # fails-here
        return output, hidden

    def init_hidden(self):
        return torch.zeros(self.n_layers, 1, self.hidden_size)


encoder = EncoderRNN(input_size=50, hidden_size=16)
optimizer = torch.optim.SGD(encoder.parameters(), lr=0.01)


# --- inlined from the shared test helper (common.py) that the training script imports ---
def setup_common():
    torch.set_default_dtype(torch.float64)  # root-cause
    np.random.seed(123)
    torch.manual_seed(123)


setup_common()

criterion = nn.MSELoss()
for step in range(3):
    seq = torch.randint(0, 50, (7,))
    hidden = encoder.init_hidden()
    output, hidden = encoder(seq, hidden)
    loss = criterion(output, torch.zeros_like(output))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("ok")
