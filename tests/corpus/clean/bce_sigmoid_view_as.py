import torch
import torch.nn as nn


def get_data():
    x = torch.rand(100, 7)
    labels = (x.mean(dim=1) > 0.5).long()  # ints from a comparison...
    return x, labels


model = nn.Sequential(nn.Linear(7, 1), nn.Sigmoid())
bce = nn.BCELoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x, labels = get_data()
for epoch in range(10):
    opt.zero_grad()
    probs = model(x)
    loss = bce(probs, labels.float().view_as(probs))  # ...converted where they meet the loss
    loss.backward()
    opt.step()
