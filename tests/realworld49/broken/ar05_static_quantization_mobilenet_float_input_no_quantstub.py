"""Post-training static quantization (eager mode, x86 qconfig) of a MobileNet image classifier for CPU inference, the situation of pytorch/pytorch #133087: the float model is prepared, calibrated and converted as it is, with no QuantStub / DeQuantStub around it, so after convert() the first Conv2d is a quantized conv that receives the float32 image batch
source: https://github.com/pytorch/pytorch/issues/133087
reported-error: model.qconfig = torch.quantization.get_default_qconfig('x86'); torch.ao.quantization.prepare(model, inplace=True); torch.ao.quantization.convert(model, inplace=True) -> NotImplementedError: Could not run 'quantized::conv2d.new' with arguments from the 'CPU' backend ... 'quantized::conv2d.new' is only available for these backends: [Meta, QuantizedCPU, QuantizedCUDA, ...]
outcome: NotImplementedError: Could not run 'quantized::conv2d.new' with arguments from the 'CPU' backend. ... 'quantized::conv2d.new' is only available for these backends: [Meta, QuantizedCPU, BackendSelect, ...] (the first quantized Conv2d of the converted model gets the float32 batch) at line 40
root-cause: line 62
expect: DG004
"""
import warnings

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

warnings.filterwarnings("ignore", category=UserWarning)
warnings.filterwarnings("ignore", category=DeprecationWarning)
torch.manual_seed(0)


def conv_bn_relu(inp, out, kernel, stride, groups=1):
    return nn.Sequential(
        nn.Conv2d(inp, out, kernel, stride, kernel // 2, groups=groups, bias=False),
        nn.BatchNorm2d(out),
        nn.ReLU(inplace=True),
    )


class MobileNet(nn.Module):
    """MobileNet-v1 style: a stem conv, then depthwise-separable blocks, global pooling, classifier."""

    def __init__(self, num_classes=10, width=(16, 32, 64, 128)):
        super().__init__()
        layers = [conv_bn_relu(3, width[0], 3, 2)]
        for cin, cout in zip(width[:-1], width[1:]):
            layers += [conv_bn_relu(cin, cin, 3, 2, groups=cin), conv_bn_relu(cin, cout, 1, 1)]
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(width[-1], num_classes)

    def forward(self, x):
        x = self.pool(self.features(x))  # fails-here
        return self.classifier(torch.flatten(x, 1))


def create_model():
    model = MobileNet()
    # a short training run stands in for the pretrained weights
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = torch.randn(64, 3, 64, 64), torch.randint(0, 10, (64,))
    for _ in range(3):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    return model


# synthetic "ImageNet" batches, already normalized by the eval transforms
images = torch.randn(96, 3, 64, 64)
labels = torch.randint(0, 10, (96,))
calib_loader = DataLoader(TensorDataset(images[:32], labels[:32]), batch_size=16)
test_loader = DataLoader(TensorDataset(images[32:], labels[32:]), batch_size=16)

model = create_model()  # root-cause
model = model.eval()
model.qconfig = torch.ao.quantization.get_default_qconfig("x86")
print(model.qconfig)
torch.ao.quantization.prepare(model, inplace=True)

with torch.no_grad():
    for x, _ in calib_loader:  # calibration: observers record activation ranges
        model(x)

torch.ao.quantization.convert(model, inplace=True)

correct = total = 0
with torch.no_grad():
    for x, y in test_loader:
        out = model(x)
        correct += (out.argmax(1) == y).sum().item()
        total += len(y)
print(f"int8 model accuracy: {correct / total:.3f}")
