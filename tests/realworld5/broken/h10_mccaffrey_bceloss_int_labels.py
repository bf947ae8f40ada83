"""Binary classification (predict sex from age/state/income/politics) where the label column is read as int64 and given to BCELoss
source: https://jamesmccaffreyblog.com/2023/03/22/why-pytorch-binary-cassification-labels-must-be-floats-but-multi-class-classification-labels-must-be-integers/
reported-error: RuntimeError: Found dtype Long but expected Float (BCELoss with integer labels)
outcome: RuntimeError: Found dtype Long but expected Float at line 63
root-cause: line 28
expect: DG007
"""
import io

import numpy as np
import torch as T

device = T.device("cpu")

DATA = "\n".join(
    f"{i % 2}\t{0.2 + (i % 7) * 0.05:.2f}\t{int(i % 3 == 0)}\t{int(i % 3 == 1)}\t{int(i % 3 == 2)}\t"
    f"{0.3 + (i % 11) * 0.04:.4f}\t{int(i % 4 == 0)}\t{int(i % 4 == 1)}\t{int(i % 4 >= 2)}"
    for i in range(40)
)


class PeopleDataset(T.utils.data.Dataset):
    def __init__(self, src_file):
        all_x = np.loadtxt(src_file, usecols=range(1, 9), delimiter="\t", comments="#", dtype=np.float32)
        src_file.seek(0)
        all_y = np.loadtxt(src_file, usecols=0, delimiter="\t", comments="#", dtype=np.int64)
        self.x_data = T.tensor(all_x, dtype=T.float32).to(device)
        self.y_data = T.tensor(all_y, dtype=T.int64).to(device)  # root-cause
        self.y_data = self.y_data.reshape(-1, 1)

    def __len__(self):
        return len(self.x_data)

    def __getitem__(self, idx):
        return self.x_data[idx], self.y_data[idx]


class Net(T.nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.hid1 = T.nn.Linear(8, 10)
        self.hid2 = T.nn.Linear(10, 10)
        self.oupt = T.nn.Linear(10, 1)

    def forward(self, x):
        z = T.tanh(self.hid1(x))
        z = T.tanh(self.hid2(z))
        return T.sigmoid(self.oupt(z))


def main():
    T.manual_seed(1)
    train_ds = PeopleDataset(io.StringIO(DATA))
    train_ldr = T.utils.data.DataLoader(train_ds, batch_size=10, shuffle=True)
    net = Net().to(device)
    loss_func = T.nn.BCELoss()
    optimizer = T.optim.SGD(net.parameters(), lr=0.01)
    for epoch in range(3):
        epoch_loss = 0.0
        for (X, y) in train_ldr:
            optimizer.zero_grad()
            oupt = net(X)
            loss_val = loss_func(oupt, y)  # fails-here
            epoch_loss += loss_val.item()
            loss_val.backward()
            optimizer.step()
        print("epoch = %4d   loss = %0.4f" % (epoch, epoch_loss))


if __name__ == "__main__":
    main()
