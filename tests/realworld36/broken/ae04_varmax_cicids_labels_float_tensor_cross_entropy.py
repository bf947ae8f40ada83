"""Intrusion-detection classifier with open-set VarMax scoring (bayegaspard/varMax: DataLoaderModule.load_data reads the CICIDS2017 CSV with pandas, label-encodes the known attack classes, standardises the features and builds TensorDatasets; VarMaxClassifier; a Trainer class holding model, loader, criterion, optimizer and device; main wires them with CrossEntropyLoss): the variant copies the dtype of the feature tensor to the label tensor of the training TensorDataset, so CrossEntropyLoss receives float32 class indices
source: https://github.com/bayegaspard/varMax/blob/a11af043114cb537daa3b3f622c399beffa13213/src/data_loader.py
reported-error: (none filed; upstream builds the training labels with torch.tensor(y_train, dtype=torch.long); the variant's dtype=torch.float32 fails at the first loss in Trainer.train)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 138
root-cause: line 92
expect: DG006
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import LabelEncoder, StandardScaler
from torch.utils.data import DataLoader, TensorDataset


def write_fake_cicids(path, n_per_class=120, n_features=12):
    """Synthetic stand-in for CICIDS2017_preprocessed.csv (same column conventions)."""
    rng = np.random.default_rng(0)
    labels = ['BENIGN', 'DoS Hulk', 'PortScan', 'DDoS', 'DoS GoldenEye', 'DoS slowloris', 'Bot', 'FTP-Patator',
              'Web Attack – Brute Force']
    frames = []
    for k, lab in enumerate(labels):
        x = rng.normal(loc=k, scale=1.0, size=(n_per_class, n_features))
        df = pd.DataFrame(x, columns=[f'Feature {i}' for i in range(n_features)])
        df['Flow ID'] = [f'flow-{k}-{i}' for i in range(n_per_class)]
        df['Destination Port'] = rng.integers(1, 65535, n_per_class)
        df['Label'] = lab
        frames.append(df)
    data = pd.concat(frames, ignore_index=True)
    data.loc[3, 'Feature 0'] = np.inf
    data.to_csv(path, index=False)


# ---- src/data_loader.py
class DataLoaderModule:
    def __init__(self, data_path, max_samples_per_class=10000, batch_size=256):
        self.data_path = data_path
        self.max_samples_per_class = max_samples_per_class
        self.batch_size = batch_size
        self.label_encoder = LabelEncoder()

    def load_data(self):
        data_path = self.data_path
        if not os.path.exists(data_path):
            raise FileNotFoundError(f"The dataset file '{data_path}' was not found.")

        data = pd.read_csv(data_path)

        # Drop unnecessary columns
        columns_to_drop = ['Flow ID', 'Source IP', 'Source Port', 'Destination IP', 'Destination Port', 'Timestamp']
        data.drop(columns=[col for col in columns_to_drop if col in data.columns], inplace=True)
        data.replace([np.inf, -np.inf], np.nan, inplace=True)
        data.dropna(inplace=True)

        # Define known and unknown classes
        known_classes = ['BENIGN', 'DoS Hulk', 'PortScan', 'DDoS', 'DoS GoldenEye', 'DoS slowloris', 'Bot', 'FTP-Patator']
        unknown_classes = ['Web Attack – Brute Force']

        data_known = data[data['Label'].isin(known_classes)].copy()
        data_unknown = data[data['Label'].isin(unknown_classes)].copy()

        # Limit samples per class in the known data (columns selected so that pandas 3 keeps 'Label')
        data_known = data_known.groupby('Label')[list(data_known.columns)].apply(
            lambda x: x.sample(n=min(len(x), self.max_samples_per_class), random_state=42)
        ).reset_index(drop=True)

        # Encode labels for known classes only
        y_known = self.label_encoder.fit_transform(data_known['Label'])
        num_classes = len(self.label_encoder.classes_)
        unknown_label = num_classes  # Assign unknown class the next integer

        # Standardize features
        features_known = data_known.drop('Label', axis=1)
        features_unknown = data_unknown.drop('Label', axis=1)
        scaler = StandardScaler()
        X_known = scaler.fit_transform(features_known)
        X_unknown = scaler.transform(features_unknown)

        X_train, X_test_known, y_train, y_test_known = train_test_split(
            X_known, y_known, test_size=0.3, random_state=42, stratify=y_known
        )

        X_test_combined = np.vstack((X_test_known, X_unknown))
        y_test_combined = np.concatenate((y_test_known, [unknown_label] * X_unknown.shape[0]))

        # Convert data to PyTorch tensors and create DataLoaders
        train_loader = DataLoader(
            TensorDataset(torch.tensor(X_train, dtype=torch.float32), torch.tensor(y_train, dtype=torch.float32)),  # root-cause
            batch_size=self.batch_size, shuffle=True
        )

        test_loader = DataLoader(
            TensorDataset(torch.tensor(X_test_combined, dtype=torch.float32), torch.tensor(y_test_combined, dtype=torch.long)),
            batch_size=self.batch_size
        )

        return train_loader, test_loader, self.label_encoder, num_classes, unknown_label, scaler


# ---- src/model.py
class VarMaxClassifier(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes, cutoff=0.3):
        super(VarMaxClassifier, self).__init__()
        self.fc1 = nn.Linear(input_size, hidden_size)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(hidden_size, num_classes)
        self.cutoff = cutoff

    def forward(self, x):
        out = self.fc1(x)
        out = self.relu(out)
        logits = self.fc2(out)
        return logits


# ---- src/trainer.py
class Trainer:
    def __init__(self, model, train_loader, criterion, optimizer, device="cpu"):
        self.model = model
        self.train_loader = train_loader
        self.criterion = criterion
        self.optimizer = optimizer
        self.device = device

    def train(self, num_epochs=10):
        self.model.to(self.device)
        for epoch in range(num_epochs):
            self.model.train()
            running_loss = 0.0
            for inputs, labels in self.train_loader:
                inputs, labels = inputs.to(self.device), labels.to(self.device)
                self.optimizer.zero_grad()
                outputs = self.model(inputs)
                loss = self.criterion(outputs, labels)  # fails-here
                loss.backward()
                self.optimizer.step()
                running_loss += loss.item()
            print(f"Epoch [{epoch+1}/{num_epochs}], Loss: {running_loss / len(self.train_loader):.4f}")


# ---- main.py (Evaluator and VarMaxScorer dropped)
def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data_path = os.path.join(tempfile.mkdtemp(), 'CICIDS2017_preprocessed.csv')
    write_fake_cicids(data_path)

    train_loader, test_loader, label_encoder, num_classes, unknown_label, scaler = DataLoaderModule(data_path).load_data()

    input_size = next(iter(train_loader))[0].shape[1]
    model = VarMaxClassifier(input_size=input_size, hidden_size=64, num_classes=num_classes).to(device)

    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)

    trainer = Trainer(model, train_loader, criterion, optimizer, device)
    trainer.train(num_epochs=3)


if __name__ == "__main__":
    main()
