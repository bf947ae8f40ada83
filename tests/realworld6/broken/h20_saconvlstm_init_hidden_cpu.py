"""Self-attention ConvLSTM for frame prediction: the cell's init_hidden builds h and c with torch.zeros and no device, while the model and input frames are on the GPU
source: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/pull/26
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (torch.cat of the CUDA frame with the CPU hidden state; the exact wording varies by op) at line 31; on CPU: ok
root-cause: line 25
expect: DG009
"""
from typing import Optional, Tuple

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class SAConvLSTMCell(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, frame_size: Tuple[int, int]):
        super().__init__()
        self.out_channels = out_channels
        self.frame_size = frame_size
        self.conv = nn.Conv2d(in_channels + out_channels, 4 * out_channels, kernel_size, padding=kernel_size // 2)
        self.attn_q = nn.Conv2d(out_channels, 4, 1)
        self.attn_k = nn.Conv2d(out_channels, 4, 1)

    def init_hidden(self, batch_size: int):
        h = torch.zeros(batch_size, self.out_channels, *self.frame_size)  # root-cause
        c = torch.zeros(batch_size, self.out_channels, *self.frame_size)
        return h, c

    def forward(self, X: torch.Tensor, prev: Optional[Tuple[torch.Tensor, torch.Tensor]] = None):
        h_prev, c_prev = prev if prev is not None else self.init_hidden(X.size(0))
        conv_output = self.conv(torch.cat([X, h_prev], dim=1))  # fails-here
        i, f, g, o = torch.chunk(conv_output, 4, dim=1)
        c = torch.sigmoid(f) * c_prev + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        q, k = self.attn_q(h).flatten(2), self.attn_k(h).flatten(2)
        attn = torch.softmax(q.transpose(1, 2) @ k, dim=-1)
        h = h + (h.flatten(2) @ attn).view_as(h)
        return h, c


class SAConvLSTM(nn.Module):
    def __init__(self, in_channels=1, hidden=8, frame_size=(16, 16)):
        super().__init__()
        self.cell = SAConvLSTMCell(in_channels, hidden, 3, frame_size)
        self.head = nn.Conv2d(hidden, in_channels, 1)

    def forward(self, X: torch.Tensor) -> torch.Tensor:
        prev = None
        outputs = []
        for t in range(X.size(2)):
            h, c = self.cell(X[:, :, t], prev)
            prev = (h, c)
            outputs.append(torch.sigmoid(self.head(h)))
        return torch.stack(outputs, dim=2)


def train(model, loader, device, epochs=1):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.BCELoss()
    for epoch in range(epochs):
        for X, y in loader:
            X, y = X.to(device), y.to(device)
            loss = criterion(model(X), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    frames = torch.rand(8, 1, 5, 16, 16)
    loader = DataLoader(TensorDataset(frames[:, :, :4], frames[:, :, 1:]), batch_size=4, shuffle=True)
    model = SAConvLSTM().to(device)
    train(model, loader, device)
