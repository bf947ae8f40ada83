"""Cats-vs-dogs classifier on a CSV-annotated image folder (JonasBlx/pytorch_course customdataset.py: CatsAndDogsDataset reads annotations with pandas and returns torch.tensor(label)): one annotation row has no label and is dropped with dropna(), which leaves the label column float64, so CrossEntropyLoss gets float64 class targets
source: https://github.com/JonasBlx/pytorch_course/blob/54b8f5e6131a0c82f0030dfb46b972c4a2e545dd/customdataset.py
reported-error: (none filed; the course's dataset wraps the CSV label with int(...); the variant reads it as is: RuntimeError: expected scalar type Long but found Double)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Double at line 62
root-cause: line 31
expect: DG006
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


# ---- customdataset.py
class CatsAndDogsDataset(Dataset):
    def __init__(self, csv_file, root_dir, transform=None):
        self.annotations = pd.read_csv(csv_file).dropna()
        self.root_dir = root_dir
        self.transform = transform

    def __len__(self):
        return len(self.annotations)

    def __getitem__(self, index):
        img_path = os.path.join(self.root_dir, self.annotations.iloc[index, 0])
        image = torch.from_numpy(np.load(img_path)).float()
        y_label = torch.tensor(self.annotations.iloc[index, 1])  # root-cause
        if self.transform:
            image = self.transform(image)
        return (image, y_label)


# ---- create_cats_dogs_label.py (synthetic images and annotation CSV)
def make_folder(root, n=24):
    rng = np.random.default_rng(0)
    lines = ["image,label"]
    for i in range(n):
        name = f"{'cat' if i % 2 == 0 else 'dog'}.{i}.npy"
        np.save(os.path.join(root, name), rng.random((3, 32, 32)).astype(np.float32))
        lines.append(f"{name},{i % 2}")
    lines.append("dog.unlabelled.npy,")
    with open(os.path.join(root, "cats_dogs.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return os.path.join(root, "cats_dogs.csv")


# ---- cats_dogs_training.py
def main():
    root = tempfile.mkdtemp()
    dataset = CatsAndDogsDataset(csv_file=make_folder(root), root_dir=root)
    train_loader = DataLoader(dataset, batch_size=8, shuffle=True)
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for data, targets in train_loader:
            scores = model(data)
            loss = criterion(scores, targets)  # fails-here
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
