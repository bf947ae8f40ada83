"""LSTM_model on Colab: data, label and model moved to the GPU, but h0/c0 built in forward stay on the CPU
source: https://github.com/pytorch/pytorch/issues/52186
reported-error: RuntimeError: Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu
outcome: cuda-only: RuntimeError: Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu at line 51; on CPU: ok
root-cause: line 47
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

batch_size = 8
n_hour = 6
num_epochs = 2
learning_rate = 0.001


def loading_data(n=40, feature_num=5):
    data = np.random.rand(n, n_hour, feature_num).astype(np.float32)
    label = np.random.randint(0, 2, size=n)
    return (data[:32], label[:32]), (data[32:], label[32:]), feature_num


class click_dataset(Dataset):
    def __init__(self, data):
        self.x = torch.from_numpy(data[0])
        self.y = torch.from_numpy(data[1]).long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]


class LSTM_model(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_classes):
        super(LSTM_model, self).__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        # Set initial hidden and cell states
        h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size)  # root-cause
        c0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size)

        # Forward propagate LSTM
        out, _ = self.lstm(x, (h0, c0))  # fails-here
        out = self.fc(out[:, -1, :])
        return out


# load the dataset
train, test, feature_num = loading_data()

# assign to dataloader
train_data = click_dataset(train)
train_dataloader = DataLoader(train_data, batch_size=batch_size, shuffle=False, num_workers=0)

# Device configuration
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')

model = LSTM_model(input_size=feature_num, hidden_size=16, num_layers=2, num_classes=2).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

total_step = len(train_dataloader)
for epoch in range(num_epochs):
    for i, (data, label) in enumerate(train_dataloader):
        data = data.to(device)
        label = label.to(device)

        outputs = model(data)
        loss = criterion(outputs, label)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        print('Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}'.format(epoch + 1, num_epochs, i + 1, total_step, loss.item()))
