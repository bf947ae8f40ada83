"""Whole autoencoder saved with torch.save(model) and loaded back with torch.load on torch >= 2.6
source: https://github.com/HealthSciTech/pyEDA/issues/5
reported-error: WeightsUnpickler error: Unsupported global: GLOBAL pyEDA.pyEDA.autoencoder.AE was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.AE was not an allowed global by default. ... at line 55
root-cause: line 55
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

checkpoint_path = os.path.join(tempfile.mkdtemp(), 'checkpoint.t7')


class AE(nn.Module):
    def __init__(self, **kwargs):
        super().__init__()
        self.encoder_hidden_layer = nn.Linear(in_features=kwargs["input_shape"], out_features=32)
        self.encoder_output_layer = nn.Linear(in_features=32, out_features=8)
        self.decoder_hidden_layer = nn.Linear(in_features=8, out_features=32)
        self.decoder_output_layer = nn.Linear(in_features=32, out_features=kwargs["input_shape"])

    def forward(self, features):
        activation = torch.relu(self.encoder_hidden_layer(features))
        code = torch.relu(self.encoder_output_layer(activation))
        activation = torch.relu(self.decoder_hidden_layer(code))
        return torch.relu(self.decoder_output_layer(activation))


def prepare_automatic(eda_signal, sample_rate=128, new_sample_rate=40, k=8, epochs=5, batch_size=4):
    eda = np.asarray(eda_signal, dtype=np.float32).reshape(-1, 40)
    train_loader = torch.utils.data.DataLoader(torch.from_numpy(eda), batch_size=batch_size, shuffle=True)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = AE(input_shape=40).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.MSELoss()
    for epoch in range(epochs):
        loss = 0
        for batch_features in train_loader:
            batch_features = batch_features.to(device)
            optimizer.zero_grad()
            outputs = model(batch_features)
            train_loss = criterion(outputs, batch_features)
            train_loss.backward()
            optimizer.step()
            loss += train_loss.item()
        print("epoch : {}/{}, loss = {:.6f}".format(epoch + 1, epochs, loss / len(train_loader)))
    torch.save(model, checkpoint_path)  # root-cause-alt


def process_automatic(eda_signal):
    model = torch.load(checkpoint_path)  # root-cause # fails-here
    model.eval()
    eda = torch.from_numpy(np.asarray(eda_signal, dtype=np.float32).reshape(-1, 40))
    with torch.no_grad():
        features = model.encoder_output_layer(torch.relu(model.encoder_hidden_layer(eda)))
    return features.numpy()


if __name__ == "__main__":
    signal = np.random.rand(40 * 16)
    prepare_automatic(signal)
    print(process_automatic(signal).shape)
