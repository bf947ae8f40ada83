import torch as T

T.manual_seed(0)
net = T.nn.Sequential(T.nn.Linear(12, 24), T.nn.ReLU(), T.nn.Linear(24, 3))
opt = T.optim.Adam(net.parameters(), lr=1e-3)
loss_fn = T.nn.CrossEntropyLoss()

X = T.randn(90, 12)
Y = T.randint(0, 3, (90,))

for it in range(15):
    opt.zero_grad()
    loss = loss_fn(net(X), Y)
    loss.backward()
    opt.step()
