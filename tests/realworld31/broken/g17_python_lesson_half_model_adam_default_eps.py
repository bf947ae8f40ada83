"""Mixed-precision lesson turned into a "pure fp16" trainer (renyuehe/python-Lesson pytorch_之混合精度 01_auto_cast.py loop: Net, optimizer, loss_fn, zero_grad/backward/step): instead of autocast the variant calls model.half() and keeps torch.optim.Adam with its default eps=1e-8, which is 0 in float16, so the first step writes inf/NaN into the weights without any error
source: https://github.com/renyuehe/python-Lesson/blob/87c6e1fffb51307c42bab60e24e9e91fdc666ed0/python_%E4%BA%BA%E5%B7%A5%E6%99%BA%E8%83%BD/pytorch%E5%BA%93%E7%9A%84%E5%AD%A6%E4%B9%A0/pytorch_%E4%B9%8B%E6%B7%B7%E5%90%88%E7%B2%BE%E5%BA%A6/01_auto_cast.py
reported-error: (none filed; the lesson uses autocast over a float32 model; the variant's half model with default-eps Adam silently diverges to NaN)
outcome: ok (silent: the first optimizer.step() at line 33 writes inf/NaN into the float16 weights, printed as "step 0: loss 1.5749, 663 non-finite params", and every later loss is nan)
root-cause: line 24
expect: DG012
"""
import torch
import torch.nn as nn
import torch.optim as optim


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))

    def forward(self, x):
        return self.fc(x)


torch.manual_seed(0)
model = Net().half()
optimizer = optim.Adam(model.parameters(), lr=1e-3)  # root-cause
loss_fn = nn.CrossEntropyLoss()
data = [(torch.randn(16, 20).half(), torch.randint(0, 5, (16,))) for _ in range(3)]

for step, (input, target) in enumerate(data):
    optimizer.zero_grad()
    output = model(input)
    loss = loss_fn(output.float(), target)
    loss.backward()
    optimizer.step()  # fails-here
    bad = sum((~torch.isfinite(p)).sum().item() for p in model.parameters())
    print(f"step {step}: loss {loss.item():.4f}, {bad} non-finite params")
