"""AdaFace: one PReLU layer edited to torch.float16 inside an otherwise float32 net trained with GradScaler
source: https://github.com/mk-minchul/AdaFace/issues/127
reported-error: ValueError: Attempting to unscale FP16 gradients.
outcome: ValueError: Attempting to unscale FP16 gradients. at line 50
root-cause: line 19
expect: DG014
"""
import torch
import torch.nn as nn


class BasicBlockIR(nn.Module):
    def __init__(self, in_channel, depth):
        super(BasicBlockIR, self).__init__()
        self.res_layer = nn.Sequential(
            nn.BatchNorm2d(in_channel),
            nn.Conv2d(in_channel, depth, (3, 3), (1, 1), 1, bias=False),
            nn.BatchNorm2d(depth),
            nn.PReLU(depth).half(),  # root-cause
            nn.Conv2d(depth, depth, (3, 3), (1, 1), 1, bias=False),
            nn.BatchNorm2d(depth))

    def forward(self, x):
        return self.res_layer(x) + x


class Backbone(nn.Module):
    def __init__(self, num_classes=10):
        super(Backbone, self).__init__()
        self.input_layer = nn.Sequential(nn.Conv2d(3, 16, (3, 3), 1, 1, bias=False), nn.BatchNorm2d(16))
        self.body = BasicBlockIR(16, 16)
        self.output_layer = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, num_classes))

    def forward(self, x):
        return self.output_layer(self.body(self.input_layer(x)))


device_type = 'cuda' if torch.cuda.is_available() else 'cpu'
model = Backbone().to(device_type)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scaler = torch.amp.GradScaler(device_type)
criterion = nn.CrossEntropyLoss()
for step in range(2):
    images = torch.randn(4, 3, 16, 16, device=device_type)
    labels = torch.randint(0, 10, (4,), device=device_type)
    with torch.autocast(device_type=device_type, dtype=torch.float16):
        loss = criterion(model(images).float(), labels)
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)  # fails-here
    scaler.update()
    print(step, loss.item())
