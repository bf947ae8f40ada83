"""Log anomaly detection with DeepLog (aaron-y-chen/deeplog, the packaged DeepLog of Du et al.: HDFS log-key sessions turned into sliding windows, an LSTM next-key model whose forward creates h0 / c0, train() with num_gpus, predict() with top-g candidates), deeplog pull request #6 "GPU fix": with num_gpus set the model and the windows are moved to CUDA, but Model.forward creates the initial hidden and cell states with torch.zeros(...) on the CPU, so the LSTM gets CUDA input and a CPU hidden state
source: https://github.com/aaron-y-chen/deeplog/pull/6
reported-error: RuntimeError: Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu (training with GPUs; the pull request adds .to(input.device) to the h0 / c0 creation in Model::forward)
outcome: cuda-only: RuntimeError: Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu (not run on a GPU for this set: no device machine was lent to this task) at line 32; on CPU: ok
root-cause: line 31
expect: DG009
"""
import argparse
import os
import tempfile

import numpy as np
import pandas as pd

import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


# ---- deeplog/model.py
class Model(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_keys):
        super(Model, self).__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, num_keys)

    def forward(self, input):
        h0, c0 = torch.zeros(self.num_layers, input.size(0), self.hidden_size), torch.zeros(self.num_layers, input.size(0), self.hidden_size)  # root-cause
        out, _ = self.lstm(input, (h0, c0))  # fails-here
        out = self.fc(out[:, -1, :])
        return out


# ---- deeplog/data.py (HDFS log keys parsed per block id, written as hdfs_train: one session of keys per line)
def write_hdfs_sessions(path, n_sessions=120, num_keys=28, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for b in range(n_sessions):
        length = int(rng.integers(12, 30))
        start = int(rng.integers(num_keys))
        keys = [(start + 3 * k + int(rng.integers(2))) % num_keys + 1 for k in range(length)]
        rows.append({"BlockId": "blk_%d" % b, "EventSequence": " ".join(map(str, keys))})
    pd.DataFrame(rows).to_csv(path, index=False)


def generate(path, window_size):
    df = pd.read_csv(path)
    num_sessions = 0
    inputs, outputs = [], []
    for line in df["EventSequence"]:
        num_sessions += 1
        line = tuple(map(lambda n: n - 1, map(int, line.strip().split())))
        for i in range(len(line) - window_size):
            inputs.append(line[i:i + window_size])
            outputs.append(line[i + window_size])
    print('Number of sessions({}): {}'.format(path, num_sessions))
    print('Number of seqs({}): {}'.format(path, len(inputs)))
    dataset = TensorDataset(torch.tensor(inputs, dtype=torch.float), torch.tensor(outputs))
    return dataset


# ---- deeplog/deeplog.py (train / predict)
def train(args):
    device = torch.device("cuda" if args.num_gpus > 0 and torch.cuda.is_available() else "cpu")
    model = Model(args.input_size, args.hidden_size, args.num_layers, args.num_classes).to(device)
    seq_dataset = generate(args.train_file, args.window_size)
    dataloader = DataLoader(seq_dataset, batch_size=args.batch_size, shuffle=True, pin_memory=True)
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters())
    total_step = len(dataloader)
    for epoch in range(args.num_epochs):
        train_loss = 0
        for step, (seq, label) in enumerate(dataloader):
            seq = seq.clone().detach().view(-1, args.window_size, args.input_size).to(device)
            output = model(seq)
            loss = criterion(output, label.to(device))
            optimizer.zero_grad()
            loss.backward()
            train_loss += loss.item()
            optimizer.step()
        print('Epoch [{}/{}], train_loss: {:.4f}'.format(epoch + 1, args.num_epochs, train_loss / total_step))
    os.makedirs(args.model_dir, exist_ok=True)
    model_path = os.path.join(args.model_dir, 'model.pt')
    torch.save(model.state_dict(), model_path)
    print('Finished Training, model saved to', model_path)
    return model_path


def predict(args, model_path, sessions):
    device = torch.device("cuda" if args.num_gpus > 0 and torch.cuda.is_available() else "cpu")
    model = Model(args.input_size, args.hidden_size, args.num_layers, args.num_classes).to(device)
    model.load_state_dict(torch.load(model_path, map_location=device))
    model.eval()
    anomalies = 0
    with torch.no_grad():
        for line in sessions:
            for i in range(len(line) - args.window_size):
                seq = line[i:i + args.window_size]
                label = line[i + args.window_size]
                seq = torch.tensor(seq, dtype=torch.float).view(-1, args.window_size, args.input_size).to(device)
                output = model(seq)
                predicted = torch.argsort(output, 1)[0][-args.num_candidates:]
                if label not in predicted.cpu().tolist():
                    anomalies += 1
                    break
    print('anomalous sessions: {}/{}'.format(anomalies, len(sessions)))


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--num_gpus', type=int, default=1)
    parser.add_argument('--num_layers', type=int, default=2)
    parser.add_argument('--hidden_size', type=int, default=64)
    parser.add_argument('--window_size', type=int, default=10)
    parser.add_argument('--input_size', type=int, default=1)
    parser.add_argument('--num_classes', type=int, default=28)
    parser.add_argument('--num_candidates', type=int, default=9)
    parser.add_argument('--num_epochs', type=int, default=2)
    parser.add_argument('--batch_size', type=int, default=256)
    parser.add_argument('--train_file', type=str, default='data/hdfs_train')
    parser.add_argument('--model_dir', type=str, default='model')
    workdir = tempfile.mkdtemp()
    args = parser.parse_args(['--train_file', os.path.join(workdir, 'hdfs_train.csv'),
                              '--model_dir', os.path.join(workdir, 'model')])
    torch.manual_seed(0)
    write_hdfs_sessions(args.train_file)
    model_path = train(args)
    rng = np.random.default_rng(3)
    test_sessions = [[int(k) for k in rng.integers(0, args.num_classes, 20)] for _ in range(10)]
    predict(args, model_path, test_sessions)
