"""Intent-classification chatbot (bag-of-words + tag index) whose prepare_training_data() stores the tag indices in an np.array(..., dtype=np.int32) as in the tutorial; ChatDataset hands them to CrossEntropyLoss unchanged
source: https://github.com/patrickloeber/pytorch-chatbot/issues/17
reported-error: RuntimeError: expected scalar type Long but found Int
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 64
root-cause: line 33
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

INTENTS = {
    "greeting": ["hi there", "hello", "good day", "hey"],
    "goodbye": ["bye", "see you later", "goodbye now"],
    "thanks": ["thanks a lot", "thank you", "many thanks"],
}


def bag_of_words(sentence, vocab):
    words = sentence.split()
    return np.array([1.0 if w in words else 0.0 for w in vocab], dtype=np.float32)


def prepare_training_data():
    vocab = sorted({w for ps in INTENTS.values() for p in ps for w in p.split()})
    tags = sorted(INTENTS)
    X, y = [], []
    for tag, patterns in INTENTS.items():
        for p in patterns:
            X.append(bag_of_words(p, vocab))
            y.append(tags.index(tag))
    return np.array(X), np.array(y, dtype=np.int32), vocab, tags  # root-cause


class ChatDataset(Dataset):
    def __init__(self, X, y):
        self.x_data, self.y_data = X, y

    def __getitem__(self, index):
        return self.x_data[index], self.y_data[index]

    def __len__(self):
        return len(self.x_data)


class NeuralNet(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(input_size, hidden_size), nn.ReLU(), nn.Linear(hidden_size, num_classes))

    def forward(self, x):
        return self.net(x)


X_train, y_train, vocab, tags = prepare_training_data()
train_loader = DataLoader(ChatDataset(X_train, y_train), batch_size=4, shuffle=True)
model = NeuralNet(len(vocab), 8, len(tags))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    for words, labels in train_loader:
        outputs = model(words)
        loss = criterion(outputs, labels)  # fails-here
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
print("final loss", loss.item())
