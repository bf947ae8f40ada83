"""Train C3D on a tiny synthetic UCF101 split (jfzhang95/pytorch-video-recognition layout: train.py, dataloaders/dataset.py VideoDataset, network/C3D_model.py): VideoDataset encodes its labels as a 32-bit integer array and returns torch.from_numpy(labels), so the default-collated targets are int32 and CrossEntropyLoss in train.py refuses them
source: https://github.com/jfzhang95/pytorch-video-recognition/blob/6037c1b32881d5f830539af27914271f4d5471cb/dataloaders/dataset.py
reported-error: (the repository file itself: VideoDataset builds self.label_array = np.array(...) with NumPy's default integer and returns torch.from_numpy(labels); where that default is 32-bit (Windows) the targets are int32 and train.py's criterion fails: RuntimeError: expected scalar type Long but found Int; this variant asks for np.int32 explicitly so the failure shows on Linux too)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at train.py:39
root-cause: dataloaders/dataset.py:17
expect: DG006
"""
import torch
from torch import nn, optim
from torch.utils.data import DataLoader

from dataloaders.dataset import VideoDataset
from network import C3D_model

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
nEpochs = 1
lr = 1e-3
num_classes = 5


def train_model(num_classes=num_classes, lr=lr, num_epochs=nEpochs):
    model = C3D_model.C3D(num_classes=num_classes)
    train_params = [{"params": C3D_model.get_1x_lr_params(model), "lr": lr},
                    {"params": C3D_model.get_10x_lr_params(model), "lr": lr * 10}]
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(train_params, lr=lr, momentum=0.9, weight_decay=5e-4)
    model.to(device)
    criterion.to(device)
    train_dataloader = DataLoader(VideoDataset(split="train", clip_len=4, num_classes=num_classes), batch_size=4,
                                  shuffle=True, num_workers=0)
    for epoch in range(num_epochs):
        model.train()
        running_loss = 0.0
        for inputs, labels in train_dataloader:
            inputs = inputs.to(device).requires_grad_()
            labels = labels.to(device)
            optimizer.zero_grad()
            outputs = model(inputs)
            loss = criterion(outputs, labels)  # fails-here
            loss.backward()
            optimizer.step()
            running_loss += loss.item() * inputs.size(0)
        print("[train] Epoch: {}/{} Loss: {}".format(epoch + 1, num_epochs, running_loss / len(train_dataloader.dataset)))


if __name__ == "__main__":
    train_model()
