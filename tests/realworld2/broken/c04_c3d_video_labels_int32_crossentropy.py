"""C3D video recognition: VideoDataset labels built as a NumPy int array (int32 on Windows) reach CrossEntropyLoss
source: https://github.com/jfzhang95/pytorch-video-recognition/issues/71
reported-error: RuntimeError: expected scalar type Long but found Int
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 99
root-cause: line 30 (alt 46)
expect: DG006
"""
# The reporter ran on Windows (D:\anaconda3), where NumPy's `dtype=int` is int32. `np.intc` below is
# that same C int, so the script reproduces on Linux as well.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.autograd import Variable
from torch.utils.data import DataLoader, Dataset

nEpochs = 2
lr = 1e-3
num_classes = 5
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


class VideoDataset(Dataset):
    def __init__(self, split="train", clip_len=8, crop_size=32, n_videos=20):
        self.clip_len, self.crop_size = clip_len, crop_size
        rng = np.random.default_rng(0 if split == "train" else 1)
        labels = [f"action_{i}" for i in rng.integers(0, num_classes, n_videos)]
        self.fnames = [f"{split}/{l}/v_{i:03d}" for i, l in enumerate(labels)]
        self.label2index = {label: index for index, label in enumerate(sorted(set(labels)))}
        self.label_array = np.array([self.label2index[label] for label in labels], dtype=np.intc)  # root-cause
        self.rng = rng

    def __len__(self):
        return len(self.fnames)

    def load_frames(self, fname):
        return self.rng.random((self.clip_len, self.crop_size, self.crop_size, 3)).astype(np.float32)

    def to_tensor(self, buffer):
        return buffer.transpose((3, 0, 1, 2))

    def __getitem__(self, index):
        buffer = self.load_frames(self.fnames[index])
        labels = np.array(self.label_array[index])
        buffer = self.to_tensor(buffer)
        return torch.from_numpy(buffer), torch.from_numpy(labels)  # root-cause-alt


class C3D(nn.Module):
    def __init__(self, num_classes, pretrained=False):
        super(C3D, self).__init__()
        self.conv1 = nn.Conv3d(3, 16, kernel_size=(3, 3, 3), padding=(1, 1, 1))
        self.pool1 = nn.MaxPool3d(kernel_size=(1, 2, 2), stride=(1, 2, 2))
        self.conv2 = nn.Conv3d(16, 32, kernel_size=(3, 3, 3), padding=(1, 1, 1))
        self.pool2 = nn.MaxPool3d(kernel_size=(2, 2, 2), stride=(2, 2, 2))
        self.fc6 = nn.Linear(32 * 4 * 8 * 8, 64)
        self.fc8 = nn.Linear(64, num_classes)
        self.relu = nn.ReLU()

    def forward(self, x):
        x = self.pool1(self.relu(self.conv1(x)))
        x = self.pool2(self.relu(self.conv2(x)))
        x = x.view(x.size(0), -1)
        x = self.relu(self.fc6(x))
        return self.fc8(x)


def train_model(num_classes=num_classes, lr=lr, num_epochs=nEpochs):
    model = C3D(num_classes=num_classes, pretrained=False)
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4)
    scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.1)
    model.to(device)
    criterion.to(device)

    train_dataloader = DataLoader(VideoDataset(split="train"), batch_size=4, shuffle=True, num_workers=0)
    val_dataloader = DataLoader(VideoDataset(split="val"), batch_size=4, num_workers=0)
    trainval_loaders = {"train": train_dataloader, "val": val_dataloader}

    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            running_loss = 0.0
            running_corrects = 0.0
            if phase == "train":
                model.train()
            else:
                model.eval()
            for inputs, labels in trainval_loaders[phase]:
                inputs = Variable(inputs, requires_grad=True).to(device)
                labels = Variable(labels).to(device)
                optimizer.zero_grad()
                if phase == "train":
                    outputs = model(inputs)
                else:
                    with torch.no_grad():
                        outputs = model(inputs)
                probs = nn.Softmax(dim=1)(outputs)
                preds = torch.max(probs, 1)[1]
                loss = criterion(outputs, labels)  # fails-here
                if phase == "train":
                    loss.backward()
                    optimizer.step()
                running_loss += loss.item() * inputs.size(0)
                running_corrects += torch.sum(preds == labels.data)
            if phase == "train":
                scheduler.step()
            print("[{}] Epoch: {}/{} Loss: {:.4f}".format(phase, epoch + 1, nEpochs, running_loss))


if __name__ == "__main__":
    train_model()
