"""Captcha predict(): the image goes to CUDA but the freshly loaded net stays on the CPU
source: https://github.com/fupinglee/CalculateCaptcha_Recognition/issues/1
reported-error: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same
outcome: cuda-only: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same (or the equivalent wording of the installed version) at line 39; on CPU: ok
root-cause: line 34
expect: DG009
"""
import os
import tempfile

import torch
import torch.nn as nn

device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
model_path = os.path.join(tempfile.mkdtemp(), 'model.pth')
captcha_len = 4
char_number = 15
source = [str(i) for i in range(10)] + ['+', '-', '*', '=', '?']


class CNN(nn.Module):
    def __init__(self):
        super(CNN, self).__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.fc = nn.Linear(16 * 15 * 40, captcha_len * char_number)

    def forward(self, x):
        x = self.conv(x)
        x = x.view(x.size(0), -1)
        return self.fc(x)


def predict(img):
    net = CNN()  # root-cause
    net.load_state_dict(torch.load(model_path, map_location=device))
    net.eval()
    img = img.to(device)
    with torch.no_grad():
        output = net(img)  # fails-here
    output = output.view(-1, char_number)
    output = nn.functional.softmax(output, dim=1)
    output = torch.argmax(output, dim=1)
    output = output.view(-1, captcha_len)[0]
    return ''.join([source[i] for i in output.cpu()])


if __name__ == "__main__":
    torch.save(CNN().state_dict(), model_path)
    img = torch.rand(1, 1, 30, 80)
    print(predict(img))
