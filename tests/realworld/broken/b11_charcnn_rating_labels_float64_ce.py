"""character-based-cnn on a scraped dataset: ratings column has NaN, so pandas makes it float64 and the labels reach CrossEntropyLoss as Double
source: https://github.com/ahmedbesbes/character-based-cnn/issues/5
reported-error: RuntimeError: expected scalar type Long but found Double
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Double at line 75
root-cause: line 65
expect: DG006
"""
import argparse

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader


class MyDataset(Dataset):
    def __init__(self, texts, labels, args):
        self.texts = texts
        self.labels = labels
        self.vocabulary = list(args.alphabet)
        self.max_length = args.max_length
        self.identity_mat = np.identity(len(self.vocabulary))

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        raw_text = self.texts[index]
        data = np.array([self.identity_mat[self.vocabulary.index(i)] for i in list(raw_text)[::-1]
                         if i in self.vocabulary], dtype=np.float32)
        if len(data) > self.max_length:
            data = data[:self.max_length]
        elif 0 < len(data) < self.max_length:
            data = np.concatenate((data, np.zeros((self.max_length - len(data), len(self.vocabulary)),
                                                  dtype=np.float32)))
        elif len(data) == 0:
            data = np.zeros((self.max_length, len(self.vocabulary)), dtype=np.float32)
        label = self.labels[index]
        return data, label


class CharacterLevelCNN(nn.Module):
    def __init__(self, args, number_of_classes):
        super(CharacterLevelCNN, self).__init__()
        self.conv1 = nn.Sequential(nn.Conv1d(len(args.alphabet), 32, kernel_size=7, padding=0), nn.ReLU(),
                                   nn.MaxPool1d(3))
        self.fc = nn.Linear(32 * ((args.max_length - 6) // 3), number_of_classes)

    def forward(self, x):
        x = x.transpose(1, 2)
        x = self.conv1(x)
        x = x.view(x.size(0), -1)
        return self.fc(x)


def load_data(args):
    # scraped comments with a 0-10 rating; a few ratings are missing
    df = pd.DataFrame({
        "comment": ["great product", "awful", "ok i guess", "love it", "meh", "not bad", "terrible", "superb"] * 4,
        "rating": np.array([9, 1, 5, 10, np.nan, 6, 0, 8] * 4),
    })
    df = df.dropna()
    texts = df["comment"].tolist()
    labels = df["rating"].values  # root-cause
    number_of_classes = 11
    return texts, labels, number_of_classes


def train(model, training_generator, optimizer, criterion):
    model.train()
    for features, labels in training_generator:
        optimizer.zero_grad()
        predictions = model(features)
        loss = criterion(predictions, labels)  # fails-here
        loss.backward()
        optimizer.step()


def run(args):
    texts, labels, number_of_classes = load_data(args)
    training_set = MyDataset(texts, labels, args)
    training_generator = DataLoader(training_set, batch_size=args.batch_size, shuffle=True)
    model = CharacterLevelCNN(args, number_of_classes)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    train(model, training_generator, optimizer, criterion)


if __name__ == "__main__":
    parser = argparse.ArgumentParser("Character Based CNN for text classification")
    parser.add_argument("--alphabet", type=str, default="abcdefghijklmnopqrstuvwxyz ")
    parser.add_argument("--max_length", type=int, default=30)
    parser.add_argument("--batch_size", type=int, default=8)
    parser.add_argument("--group_labels", type=int, default=0)
    args = parser.parse_args([])
    run(args)
