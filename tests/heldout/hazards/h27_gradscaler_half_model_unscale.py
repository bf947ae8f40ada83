"""Mixed-precision recipe copied half-way: autocast + GradScaler + grad clipping,
but the model was also converted with .half(). GradScaler raises
'ValueError: Attempting to unscale FP16 gradients.' at unscale_."""
import torch
from torch import nn, optim


def device_and_type():
    if torch.cuda.is_available():
        return torch.device("cuda"), "cuda"
    return torch.device("cpu"), "cpu"


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 8, kernel_size=3, padding=1)
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        return self.head(torch.relu(self.conv(x)).mean(-1))


device, dtype_name = device_and_type()
net = ConvNet().to(device).half()  # expect: DG014
opt = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
scaler = torch.amp.GradScaler(dtype_name)

for it in range(3):
    x = torch.randn(8, 4, 50, device=device, dtype=torch.float16)
    y = torch.randint(0, 3, (8,), device=device)
    with torch.autocast(device_type=dtype_name, dtype=torch.float16):
        loss = nn.functional.cross_entropy(net(x), y)
    opt.zero_grad()
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=1.0)
    scaler.step(opt)
    scaler.update()
    print(it, loss.item())
