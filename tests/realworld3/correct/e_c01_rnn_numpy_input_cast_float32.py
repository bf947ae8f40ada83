"""nn.RNN fed NumPy data converted with an explicit dtype=torch.float32 (fixed version of the report)
source: https://github.com/pytorch/pytorch/issues/41363
reported-error: RuntimeError: expected scalar type Double but found Float
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import torch
import torch.nn as nn

input_size, hidden_size, seq_len, batch = 3, 8, 5, 4
rnn = nn.RNN(input_size, hidden_size, num_layers=1, batch_first=True)
fc = nn.Linear(hidden_size, 1)
optimizer = torch.optim.SGD(list(rnn.parameters()) + list(fc.parameters()), lr=0.01)

test_input_1 = np.random.rand(batch, seq_len, input_size)
target = np.random.rand(batch, 1)
for epoch in range(3):
    inp = torch.tensor(test_input_1, dtype=torch.float32)
    out, h_n = rnn(inp)
    loss = nn.functional.mse_loss(fc(out[:, -1]), torch.tensor(target, dtype=torch.float32))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.item(), out.dtype)
