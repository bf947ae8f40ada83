"""HappyNet emotion CNN converted with .half() and trained with Adam at the default eps
source: https://github.com/pytorch/pytorch/issues/8860
reported-error: silent (NaN loss when using half precision)
outcome: ok (silent: the loss is nan from the second iteration on; Adam's eps=1e-8 is 0 in float16, so the first optimizer.step() writes inf/nan into the weights)
root-cause: line 49
expect: DG012
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class HappyNet(nn.Module):
    """5 convolutional layers, 2 fully connected ones and a softmax output."""

    def __init__(self, n_classes=7):
        super(HappyNet, self).__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.conv3 = nn.Conv2d(8, 16, 3, padding=1)
        self.conv4 = nn.Conv2d(16, 16, 3, padding=1)
        self.conv5 = nn.Conv2d(16, 16, 3, padding=1)
        self.fc1 = nn.Linear(16 * 6 * 6, 64)
        self.fc2 = nn.Linear(64, n_classes)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = F.relu(self.conv3(x))
        x = F.max_pool2d(F.relu(self.conv4(x)), 2)
        x = F.relu(self.conv5(x))
        x = x.view(x.size(0), -1)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


def get_batch(batch_size=16):
    faces = torch.rand(batch_size, 1, 24, 24)
    emotions = torch.randint(0, 7, (batch_size,))
    return faces, emotions


def main():
    use_cuda = torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")
    # "Because I'm looking at very large datasets and float to half does make a difference"
    model = HappyNet().to(device).half()
    criterion = nn.NLLLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)  # root-cause
    for iteration in range(6):
        faces, emotions = get_batch()
        faces, emotions = faces.to(device).half(), emotions.to(device)
        optimizer.zero_grad()
        output = model(faces)
        loss = criterion(output, emotions)
        loss.backward()
        optimizer.step()
        print("iteration %d loss %.4f" % (iteration, loss.item()))


if __name__ == "__main__":
    main()
