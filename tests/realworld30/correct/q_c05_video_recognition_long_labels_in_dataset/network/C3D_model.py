import torch.nn as nn


class C3D(nn.Module):
    """The C3D network (shrunk)."""

    def __init__(self, num_classes, pretrained=False):
        super().__init__()
        self.conv1 = nn.Conv3d(3, 8, kernel_size=(3, 3, 3), padding=(1, 1, 1))
        self.pool1 = nn.MaxPool3d(kernel_size=(1, 2, 2), stride=(1, 2, 2))
        self.conv2 = nn.Conv3d(8, 16, kernel_size=(3, 3, 3), padding=(1, 1, 1))
        self.pool2 = nn.MaxPool3d(kernel_size=(2, 2, 2), stride=(2, 2, 2))
        self.fc6 = nn.Linear(16 * 2 * 4 * 4, 32)
        self.fc8 = nn.Linear(32, num_classes)
        self.dropout = nn.Dropout(p=0.5)
        self.relu = nn.ReLU()

    def forward(self, x):
        x = self.pool1(self.relu(self.conv1(x)))
        x = self.pool2(self.relu(self.conv2(x)))
        x = x.view(x.size(0), -1)
        x = self.dropout(self.relu(self.fc6(x)))
        return self.fc8(x)


def get_1x_lr_params(model):
    for m in [model.conv1, model.conv2, model.fc6]:
        yield from m.parameters()


def get_10x_lr_params(model):
    yield from model.fc8.parameters()
