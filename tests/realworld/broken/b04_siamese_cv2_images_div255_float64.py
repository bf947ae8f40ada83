"""Custom Dataset stacks cv2 images divided by 255. (float64) and feeds them to a float32 CNN
source: https://github.com/adambielski/siamese-triplet/issues/49
reported-error: Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 63
root-cause: line 37
expect: DG004
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader


def fake_imread(path):
    # stand-in for cv2.imread: an HxWx3 uint8 BGR image
    rng = np.random.RandomState(abs(hash(path)) % (2 ** 31))
    return rng.randint(0, 256, size=(32, 32, 3), dtype=np.uint8)


class Data_Load(Dataset):
    def __init__(self, train_path, test_path, train):
        # Read the csv file
        self.train = train
        if self.train:
            self.train_data_info = pd.read_csv(train_path, header=None)
            self.train_data = []

            print("printing train data length CUHK")
            print(len(self.train_data_info.index))

            for (i, j) in enumerate(np.asarray(self.train_data_info.iloc[:, 0])):
                try:
                    self.train_data.append(np.moveaxis(fake_imread(j)[:, :, :3] / 255., -1, 0))  # root-cause
                except Exception:
                    print(j)

            self.train_data = np.stack(self.train_data)
            self.train_labels = np.asarray(self.train_data_info.iloc[:, 1])
            self.train_labels = torch.from_numpy(self.train_labels)

            self.train_data_len = len(self.train_data_info.index)

    def __getitem__(self, index):
        img = torch.from_numpy(self.train_data[index])  # root-cause-alt
        return img, self.train_labels[index]

    def __len__(self):
        return self.train_data_len


class EmbeddingNet(nn.Module):
    def __init__(self):
        super(EmbeddingNet, self).__init__()
        self.convnet = nn.Sequential(nn.Conv2d(3, 8, 5), nn.PReLU(), nn.MaxPool2d(2, stride=2),
                                     nn.Conv2d(8, 16, 5), nn.PReLU(), nn.MaxPool2d(2, stride=2))
        self.fc = nn.Sequential(nn.Linear(16 * 5 * 5, 64), nn.PReLU(), nn.Linear(64, 2))

    def forward(self, x):
        output = self.convnet(x)  # fails-here
        output = output.view(output.size()[0], -1)
        return self.fc(output)


tmp = tempfile.mkdtemp()
train_path = os.path.join(tmp, "train.csv")
pd.DataFrame({"path": ["img_%d.jpg" % k for k in range(8)], "label": [k % 2 for k in range(8)]}).to_csv(
    train_path, header=False, index=False)

train_dataset = Data_Load(train_path, None, train=True)
train_loader = DataLoader(train_dataset, batch_size=4, shuffle=True)
model = EmbeddingNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()

for batch_idx, (data, target) in enumerate(train_loader):
    optimizer.zero_grad()
    outputs = model(data)
    loss = loss_fn(outputs, target)
    loss.backward()
    optimizer.step()
