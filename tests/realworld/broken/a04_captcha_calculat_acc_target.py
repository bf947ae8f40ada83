"""Captcha recognition: accuracy helper compares CUDA predictions with a CPU target
source: https://github.com/fupinglee/CalculateCaptcha_Recognition/issues/1
reported-error: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! at line 49 (torch.equal of a CUDA and a CPU row); on CPU: ok
root-cause: line 66
expect: DG009
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
captcha_len = 4
char_number = 15


class CaptchaData(Dataset):
    def __init__(self, n=32):
        self.images = torch.rand(n, 1, 30, 80)
        self.labels = torch.randint(0, char_number, (n, captcha_len))

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        return self.images[idx], self.labels[idx]


class CNN(nn.Module):
    def __init__(self):
        super(CNN, self).__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.fc = nn.Linear(16 * 15 * 40, captcha_len * char_number)

    def forward(self, x):
        x = self.conv(x)
        x = x.view(x.size(0), -1)
        return self.fc(x)


def calculat_acc(output, target):
    output, target = output.view(-1, char_number), target.view(-1, char_number)
    output = nn.functional.softmax(output, dim=1)
    output = torch.argmax(output, dim=1)
    target = torch.argmax(target, dim=1)
    output, target = output.view(-1, captcha_len), target.view(-1, captcha_len)
    correct_list = []
    for i, j in zip(target, output):
        if torch.equal(i, j):  # fails-here
            correct_list.append(1)
        else:
            correct_list.append(0)
    acc = sum(correct_list) / len(correct_list)
    return acc


def train():
    cnn = CNN().to(device)
    optimizer = torch.optim.Adam(cnn.parameters(), lr=0.001)
    criterion = nn.MultiLabelSoftMarginLoss()
    train_data_loader = DataLoader(CaptchaData(), batch_size=8, shuffle=True)
    for epoch in range(2):
        acc_history = []
        for img, target in train_data_loader:
            img = img.to(device)
            target_onehot = nn.functional.one_hot(target, char_number).float().view(target.size(0), -1)  # root-cause
            output = cnn(img)
            loss = criterion(output, target_onehot.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            acc = calculat_acc(output, target_onehot)
            acc_history.append(float(acc))
        print('epoch', epoch, 'loss', loss.item(), 'acc', sum(acc_history) / len(acc_history))


if __name__ == "__main__":
    train()
