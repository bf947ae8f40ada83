"""Actuator torque prediction with a four-layer stacked LSTM (WayanFWP/Learning_LSTM LSTM/: config dict with a run-time device, ActuatorDataset over sliding windows of a pandas frame, ActuatorLSTM, a Trainer class with train/validate methods): the variant's ActuatorDataset.__getitem__ builds its tensors with torch.tensor(...) but without dtype=torch.float32, so the float64 windows taken from df[...].values reach the float32 LSTM
source: https://github.com/WayanFWP/Learning_LSTM/blob/0a2ebdf5291ef55e1db91006607521b268980c82/LSTM/data/preprocess.py
reported-error: (none filed; upstream passes dtype=torch.float32 to both torch.tensor calls of __getitem__; the variant drops it and the first forward of Trainer.train fails in the LSTM)
outcome: ValueError: RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input: input.to(torch.float32), or convert model: model.to(torch.float64) at line 82
root-cause: line 43
expect: DG004
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import Dataset, DataLoader


# ---- config.py (epochs cut from 100000 to 2)
config = {
    'input_size': 5,
    'hidden_size': 32,
    'output_size': 1,
    'epochs': 2,
    'lr': 1e-4,
    'device': 'cuda' if torch.cuda.is_available() else 'cpu',
    'target_mse': 1e-10,
    'patience': 200,
    'min_improvement': 1e-12
}


# ---- data/preprocess.py
class ActuatorDataset(Dataset):
    def __init__(self, sequences, targets):
        self.sequences = sequences
        self.targets = targets

    def __len__(self):
        return len(self.sequences)

    def __getitem__(self, idx):
        return (torch.tensor(self.sequences[idx]),  # root-cause
                torch.tensor(self.targets[idx]))


def load_data(csv_path, window_size=10):
    df = pd.read_csv(csv_path)

    # Assume columns: error, velocity, Kp, Kd, tau_ff, torque
    features = df[['error', 'velocity', 'Kp', 'Kd', 'tau_ff']].values
    target = df['torque'].values

    sequences = []
    targets = []

    for i in range(len(df) - window_size):
        seq = features[i:i+window_size]
        tgt = target[i+window_size - 1]  # predict last time step
        sequences.append(seq)
        targets.append([tgt])

    split = int(len(sequences) * 0.8)
    train_dataset = ActuatorDataset(sequences[:split], targets[:split])
    val_dataset = ActuatorDataset(sequences[split:], targets[split:])

    return DataLoader(train_dataset, batch_size=32, shuffle=True), \
           DataLoader(val_dataset, batch_size=32)


# ---- LSTM_Model/network.py
class ActuatorLSTM(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.lstm1 = nn.LSTM(input_size, hidden_size, batch_first=True)
        self.lstm2 = nn.LSTM(hidden_size, hidden_size, batch_first=True)
        self.lstm3 = nn.LSTM(hidden_size, hidden_size, batch_first=True)
        self.lstm4 = nn.LSTM(hidden_size, hidden_size, batch_first=True)
        self.fc = nn.Linear(hidden_size, output_size)

    def forward(self, x):
        out, _ = self.lstm1(x)  # fails-here
        out, _ = self.lstm2(out)
        out, _ = self.lstm3(out)
        out, _ = self.lstm4(out)
        out = self.fc(out[:, -1, :])  # Take output at last time step
        return out


# ---- train/trainer.py (plot_losses and the final report dropped)
class Trainer:
    def __init__(self, model, train_loader, val_loader, config):
        self.model = model
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.criterion = nn.MSELoss()
        self.optimizer = optim.Adam(model.parameters(), lr=config['lr'])
        self.device = config['device']
        self.epochs = config['epochs']
        self.target_mse = config.get('target_mse', 1e-10)
        self.patience = config.get('patience', 100)
        self.min_improvement = config.get('min_improvement', 1e-12)
        self.train_losses = []
        self.val_losses = []

    def validate(self):
        self.model.eval()
        total_val_loss = 0.0
        with torch.no_grad():
            for X, y in self.val_loader:
                X, y = X.to(self.device), y.to(self.device)
                output = self.model(X)
                loss = self.criterion(output, y)
                total_val_loss += loss.item()
        return total_val_loss / len(self.val_loader)

    def train(self):
        self.model.to(self.device)
        best_val_loss = float('inf')
        epochs_without_improvement = 0
        for epoch in range(self.epochs):
            self.model.train()
            total_loss = 0.0
            for X, y in self.train_loader:
                X, y = X.to(self.device), y.to(self.device)
                self.optimizer.zero_grad()
                output = self.model(X)
                loss = self.criterion(output, y)
                loss.backward()
                self.optimizer.step()
                total_loss += loss.item()
            avg_train_loss = total_loss / len(self.train_loader)
            self.train_losses.append(avg_train_loss)
            val_loss = self.validate()
            self.val_losses.append(val_loss)
            if val_loss < best_val_loss - self.min_improvement:
                best_val_loss = val_loss
                epochs_without_improvement = 0
            else:
                epochs_without_improvement += 1
            print(f"Epoch {epoch+1:4d}/{self.epochs}, Train MSE: {avg_train_loss:.2e}, Val MSE: {val_loss:.2e}")
            if epochs_without_improvement >= self.patience:
                break


# ---- actuator_data_dummy.csv (synthetic)
def write_dummy_csv(path, n=300):
    rng = np.random.default_rng(0)
    df = pd.DataFrame({
        'error': rng.normal(size=n), 'velocity': rng.normal(size=n),
        'Kp': rng.uniform(10, 50, n), 'Kd': rng.uniform(0.1, 2, n), 'tau_ff': rng.normal(size=n),
    })
    df['torque'] = df.Kp * df.error * 0.01 - df.Kd * df.velocity * 0.1 + df.tau_ff
    df.to_csv(path, index=False)


# ---- main.py
def main():
    csv_path = os.path.join(tempfile.mkdtemp(), 'actuator_data_dummy.csv')
    write_dummy_csv(csv_path)
    train_loader, val_loader = load_data(csv_path)

    model = ActuatorLSTM(
        input_size=config['input_size'],
        hidden_size=config['hidden_size'],
        output_size=config['output_size']
    )

    trainer = Trainer(model, train_loader, val_loader, config)
    trainer.train()


if __name__ == "__main__":
    main()
