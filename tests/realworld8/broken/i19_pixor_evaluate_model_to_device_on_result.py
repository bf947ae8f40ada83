"""PIXOR evaluation script: the BEV batches are moved to the device inside evaluate_model, but the .to(device) in the main block is attached to the returned metrics instead of the network, which stays on the CPU
source: https://github.com/matssteinweg/PIXOR/issues/6
reported-error: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same
outcome: cuda-only: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same (CUDA BEV batch into the CPU backbone; exact wording varies with the torch version) at line 23; on CPU: ok
root-cause: line 61
expect: DG009
"""
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class BasisBlock(nn.Module):
    def __init__(self, n_input_channels):
        super().__init__()
        self.conv1 = nn.Conv2d(n_input_channels, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)

    def forward(self, x):
        x = self.conv1(x)  # fails-here
        return torch.relu(self.bn1(x))


class PIXOR(nn.Module):
    def __init__(self, n_input_channels=6):
        super().__init__()
        self.basis_block = BasisBlock(n_input_channels)
        self.header = nn.Conv2d(16, 7, 1)

    def forward(self, x):
        x_b = self.basis_block(x)
        return self.header(x_b)


def compute_ap(predictions, distance_range, iou_threshold):
    scores = torch.sigmoid(predictions[:, 0])
    return (scores > iou_threshold).float().mean() * (distance_range / 70)


def evaluate_model(model, data_loader, distance_ranges, iou_thresholds):
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    model.eval()
    aps = torch.zeros(len(distance_ranges), len(iou_thresholds))
    with torch.no_grad():
        for (batch_data,) in data_loader:
            batch_data = batch_data.to(device)
            batch_predictions = model(batch_data)
            for i, dr in enumerate(distance_ranges):
                for j, thr in enumerate(iou_thresholds):
                    aps[i, j] += compute_ap(batch_predictions, dr, thr).item()
    return aps / len(data_loader)


if __name__ == "__main__":
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    model_path = os.path.join(tempfile.mkdtemp(), "PIXOR_Epoch_10.pt")
    torch.save(PIXOR().state_dict(), model_path)
    pixor = PIXOR()  # root-cause
    pixor.load_state_dict(torch.load(model_path, map_location=device))
    data_loader = DataLoader(TensorDataset(torch.rand(8, 6, 32, 32)), batch_size=4)
    eval_dict = evaluate_model(pixor, data_loader, distance_ranges=[70, 50, 30], iou_thresholds=[0.5, 0.6, 0.7, 0.8, 0.9]).to(device)  # root-cause-alt
    print("mAP per range:", eval_dict.mean(1).tolist())
