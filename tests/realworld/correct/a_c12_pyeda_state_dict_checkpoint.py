"""Autoencoder checkpoint saved as a state_dict and restored into a fresh AE (loads under weights_only)
source: https://github.com/HealthSciTech/pyEDA/issues/5
reported-error: WeightsUnpickler error: Unsupported global: GLOBAL pyEDA.pyEDA.autoencoder.AE was not an allowed global by default.
outcome: ok
root-cause: none
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

checkpoint_path = os.path.join(tempfile.mkdtemp(), 'autoencoder_weights.pth')


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


def prepare_automatic(eda_signal, epochs=5, batch_size=4):
    eda = np.asarray(eda_signal, dtype=np.float32).reshape(-1, 40)
    train_loader = torch.utils.data.DataLoader(torch.from_numpy(eda), batch_size=batch_size, shuffle=True)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = AE(input_shape=40).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.MSELoss()
    for epoch in range(epochs):
        for batch_features in train_loader:
            batch_features = batch_features.to(device)
            optimizer.zero_grad()
            train_loss = criterion(model(batch_features), batch_features)
            train_loss.backward()
            optimizer.step()
    torch.save(model.state_dict(), checkpoint_path)


def process_automatic(eda_signal):
    model = AE(input_shape=40)
    model.load_state_dict(torch.load(checkpoint_path, map_location="cpu"))
    model.eval()
    eda = torch.from_numpy(np.asarray(eda_signal, dtype=np.float32).reshape(-1, 40))
    with torch.no_grad():
        features = model.encoder_output_layer(torch.relu(model.encoder_hidden_layer(eda)))
    return features.numpy()


if __name__ == "__main__":
    signal = np.random.rand(40 * 16)
    prepare_automatic(signal)
    print(process_automatic(signal).shape)
