"""capturable=True on an optimizer whose parameters live on the CPU
source: https://github.com/pytorch/pytorch/issues/149722
reported-error: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla'].
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at line 20
root-cause: line 12
expect: DG016
"""
import torch
import torch.nn as nn
input_data = torch.randn(1, 10)
model = nn.Linear(10, 1)
optimizer = torch.optim.AdamW(model.parameters(), lr=0.01, capturable=True)  # root-cause
optimizer.zero_grad()
criterion = nn.MSELoss()
for epoch in range(100):
    optimizer.zero_grad()
    outputs = model(input_data)
    loss = criterion(outputs, input_data[:, :1])
    loss.backward()
    optimizer.step()  # fails-here
print(loss.item())
