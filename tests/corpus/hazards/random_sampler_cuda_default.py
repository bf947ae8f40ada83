import torch
from torch import nn
from torch.utils.data import DataLoader, RandomSampler, TensorDataset

if torch.cuda.is_available():
    torch.set_default_device("cuda")  # expect: DG003

dataset = TensorDataset(torch.rand(200, 5), torch.rand(200, 1))
sampler = RandomSampler(dataset)
loader = DataLoader(dataset, batch_size=25, sampler=sampler)

model = nn.Linear(5, 1)
opt = torch.optim.Adam(model.parameters())
for epoch in range(2):
    for features, target in loader:
        opt.zero_grad()
        nn.functional.mse_loss(model(features), target).backward()
        opt.step()
