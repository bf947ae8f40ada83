"""EEG emotion classifier on a CSV folder dataset (torcheeg issue #65: a user trains torcheeg's FBCCNN on a CSVFolderDataset whose online_transform is Compose([BandPowerSpectralDensity(sampling_rate=1000), ToGrid(location_dict)]) with a Select('label') label transform): the band powers come out of scipy.signal.welch as float64 NumPy arrays, ToGrid writes them into an np.zeros grid, no ToTensor closes the pipeline, so the DataLoader's default collate makes float64 batches and FBCCNN's first convolution refuses them
source: https://github.com/torcheeg/torcheeg/issues/65
reported-error: RuntimeError('Input type (double) and bias type (float) should be the same') when training FBCCNN on a CSVFolderDataset built with online_transform=transforms.Compose([transforms.BandPowerSpectralDensity(sampling_rate=1000), transforms.ToGrid(self.location_dict)])
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 194
root-cause: line 240
expect: DG004
"""
import os
import tempfile

import numpy as np
import pandas as pd
from scipy import signal

import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader


# ---- torcheeg/transforms/base_transform.py
class EEGTransform:
    def __init__(self, apply_to_baseline=False):
        self.apply_to_baseline = apply_to_baseline

    def __call__(self, *args, eeg=None, baseline=None, **kwargs):
        ret = {"eeg": self.apply(eeg, **kwargs)}
        if baseline is not None:
            ret["baseline"] = self.apply(baseline, **kwargs) if self.apply_to_baseline else baseline
        return ret

    def apply(self, eeg, **kwargs):
        raise NotImplementedError


class LabelTransform:
    def __call__(self, *args, y=None, **kwargs):
        return {"y": self.apply(y, **kwargs)}


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, **kwargs):
        for t in self.transforms:
            kwargs = {**kwargs, **t(**kwargs)}
        return kwargs


# ---- torcheeg/transforms/label.py
class Select(LabelTransform):
    def __init__(self, key):
        self.key = key

    def apply(self, y, **kwargs):
        if isinstance(self.key, (list, tuple)):
            return [y[k] for k in self.key]
        return y[self.key]


# ---- torcheeg/transforms/numpy.py
class BandPowerSpectralDensity(EEGTransform):
    """Power spectral density of each channel in each frequency band (Welch's method)."""

    def __init__(self, sampling_rate=128, fft_n=None, num_window=1,
                 band_dict={"theta": [4, 8], "alpha": [8, 14], "beta": [14, 31], "gamma": [31, 49]},
                 apply_to_baseline=False):
        super().__init__(apply_to_baseline=apply_to_baseline)
        self.sampling_rate = sampling_rate
        self.fft_n = fft_n if fft_n is not None else sampling_rate
        self.num_window = num_window
        self.band_dict = band_dict

    def apply(self, eeg, **kwargs):
        band_list = []
        freqs, psd = signal.welch(eeg, fs=self.sampling_rate, nperseg=self.fft_n // self.num_window, axis=-1)
        for low, high in self.band_dict.values():
            idx = np.logical_and(freqs >= low, freqs < high)
            band_list.append(psd[..., idx].mean(axis=-1))
        return np.stack(band_list, axis=-1)


class ToGrid(EEGTransform):
    """Project the channel dimension onto the 2D electrode grid given by channel_location_dict."""

    def __init__(self, channel_location_dict, apply_to_baseline=False):
        super().__init__(apply_to_baseline=apply_to_baseline)
        self.channel_location_dict = channel_location_dict
        loc_x_list, loc_y_list = [], []
        for locs in channel_location_dict.values():
            if locs is None:
                continue
            loc_y, loc_x = locs
            loc_x_list.append(loc_x)
            loc_y_list.append(loc_y)
        self.width = max(loc_x_list) + 1
        self.height = max(loc_y_list) + 1

    def apply(self, eeg, **kwargs):
        # num_electrodes x timestep (or bands)
        outputs = np.zeros([self.height, self.width, eeg.shape[-1]])
        for i, locs in enumerate(self.channel_location_dict.values()):
            if locs is None:
                continue
            (loc_y, loc_x) = locs
            outputs[loc_y][loc_x] = eeg[i]
        outputs = outputs.transpose(2, 0, 1)
        return outputs


# ---- torcheeg/transforms/torch.py
class ToTensor(EEGTransform):
    def apply(self, eeg, **kwargs):
        return torch.from_numpy(eeg).float()


# ---- torcheeg/datasets/constants/utils.py
def format_channel_location_dict(channel_list, location_list):
    location_list = np.array(location_list)
    output = {}
    for channel in channel_list:
        if len(np.argwhere(location_list == channel)):
            output[channel] = (np.argwhere(location_list == channel)[0]).tolist()
        else:
            output[channel] = None
    return output


# ---- torcheeg/datasets/module/folder_dataset.py (CSVFolderDataset)
class CSVFolderDataset(Dataset):
    """Each row of csv_path names a trial file (file_path) with its subject_id, trial_id and label; read_fn turns
    a file into a (num_electrodes, num_samples) array that is cut into chunks of chunk_size samples."""

    def __init__(self, csv_path, read_fn, io_path=None, chunk_size=1000, overlap=0, before_trial=None,
                 online_transform=None, label_transform=None, num_worker=0, verbose=False):
        self.csv_path = csv_path
        self.read_fn = read_fn
        self.io_path = io_path
        self.chunk_size = chunk_size
        self.overlap = overlap
        self.before_trial = before_trial
        self.online_transform = online_transform
        self.label_transform = label_transform
        self.eeg_list, self.info_list = self.process_record()

    def process_record(self):
        df = pd.read_csv(self.csv_path)
        eeg_list, info_list = [], []
        for _, row in df.iterrows():
            trial = self.read_fn(row["file_path"])
            if self.before_trial is not None:
                trial = self.before_trial(trial)
            step = self.chunk_size - self.overlap
            for i, start in enumerate(range(0, trial.shape[1] - self.chunk_size + 1, step)):
                eeg_list.append(trial[:, start:start + self.chunk_size])
                info_list.append({"clip_id": f"{row['subject_id']}_{row['trial_id']}_{i}",
                                  "subject_id": row["subject_id"], "trial_id": row["trial_id"],
                                  "label": int(row["label"]), "start_at": start, "end_at": start + self.chunk_size})
        return eeg_list, info_list

    def __len__(self):
        return len(self.info_list)

    def __getitem__(self, index):
        info = self.info_list[index]
        signal_ = self.eeg_list[index]
        eeg = signal_
        if self.online_transform:
            eeg = self.online_transform(eeg=signal_)["eeg"]
        if self.label_transform:
            info = self.label_transform(y=info)["y"]
        return eeg, info


# ---- torcheeg/models/cnn/fbccnn.py
class FBCCNN(nn.Module):
    def __init__(self, num_classes=2, in_channels=4, grid_size=(9, 9)):
        super().__init__()
        self.num_classes = num_classes
        self.in_channels = in_channels
        self.grid_size = grid_size
        self.block1 = nn.Sequential(nn.Conv2d(in_channels, 12, kernel_size=3, padding=1, stride=1),
                                    nn.BatchNorm2d(12), nn.ReLU())
        self.block2 = nn.Sequential(nn.Conv2d(12, 32, kernel_size=3, padding=1, stride=1),
                                    nn.BatchNorm2d(32), nn.ReLU())
        self.block3 = nn.Sequential(nn.Conv2d(32, 64, kernel_size=3, padding=1, stride=1),
                                    nn.BatchNorm2d(64), nn.ReLU())
        self.block4 = nn.Sequential(nn.Conv2d(64, 32, kernel_size=3, padding=1, stride=1),
                                    nn.BatchNorm2d(32), nn.ReLU())
        self.lin1 = nn.Sequential(nn.Linear(grid_size[0] * grid_size[1] * 32, 256), nn.ReLU())
        self.lin2 = nn.Linear(256, num_classes)

    def forward(self, x):
        x = self.block1(x)  # fails-here
        x = self.block2(x)
        x = self.block3(x)
        x = self.block4(x)
        x = x.flatten(start_dim=1)
        x = self.lin1(x)
        return self.lin2(x)


# ---- the user's experiment
CHANNEL_LIST = ['FP1', 'FPZ', 'FP2', 'AF3', 'AF4', 'F7', 'F5', 'F3', 'F1', 'FZ', 'F2', 'F4', 'F6', 'F8',
                'FC5', 'FC3', 'FC1', 'FCZ', 'FC2', 'FC4', 'FC6', 'T7', 'C5', 'C3', 'C1', 'CZ', 'C2', 'C4',
                'C6', 'T8', 'TP7', 'CP5', 'CP3', 'CP1', 'CPZ', 'CP2', 'CP4', 'CP6', 'TP8', 'P7', 'P5', 'P3',
                'P1', 'PZ', 'P2', 'P4', 'P6', 'P8', 'PO7', 'PO3', 'POZ', 'PO4', 'PO8', 'O1', 'OZ', 'O2']
CHANNEL_LOCATION_LIST = [['-', '-', '-', 'FP1', 'FPZ', 'FP2', '-', '-', '-'],
                         ['-', '-', '-', 'AF3', '-', 'AF4', '-', '-', '-'],
                         ['F7', 'F5', 'F3', 'F1', 'FZ', 'F2', 'F4', 'F6', 'F8'],
                         ['-', 'FC5', 'FC3', 'FC1', 'FCZ', 'FC2', 'FC4', 'FC6', '-'],
                         ['T7', 'C5', 'C3', 'C1', 'CZ', 'C2', 'C4', 'C6', 'T8'],
                         ['TP7', 'CP5', 'CP3', 'CP1', 'CPZ', 'CP2', 'CP4', 'CP6', 'TP8'],
                         ['P7', 'P5', 'P3', 'P1', 'PZ', 'P2', 'P4', 'P6', 'P8'],
                         ['-', 'PO7', 'PO3', '-', 'POZ', '-', 'PO4', 'PO8', '-'],
                         ['-', '-', 'O1', '-', 'OZ', '-', 'O2', '-', '-']]


class EEGEmotionExperiment:
    def __init__(self, csv_path, io_path, sampling_rate=1000, batch_size=8, epochs=2, lr=1e-4):
        self.csv_path = csv_path
        self.io_path = io_path
        self.sampling_rate = sampling_rate
        self.batch_size = batch_size
        self.epochs = epochs
        self.lr = lr
        self.location_dict = format_channel_location_dict(CHANNEL_LIST, CHANNEL_LOCATION_LIST)
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    def default_read_fn(self, file_path, **kwargs):
        # one recording exported from the amplifier: one column per electrode, one row per sample
        frame = pd.read_csv(file_path)
        return frame[CHANNEL_LIST].values.T

    def build_dataset(self):
        dataset = CSVFolderDataset(csv_path=self.csv_path,
                                   read_fn=self.default_read_fn,
                                   io_path=self.io_path,
                                   before_trial=None,
                                   online_transform=Compose([BandPowerSpectralDensity(sampling_rate=self.sampling_rate), ToGrid(self.location_dict)]),  # root-cause
                                   label_transform=Compose([Select('label')]),
                                   num_worker=0)
        return dataset

    def train(self):
        dataset = self.build_dataset()
        loader = DataLoader(dataset, batch_size=self.batch_size, shuffle=True)
        model = FBCCNN(num_classes=2, in_channels=4, grid_size=(9, 9)).to(self.device)
        optimizer = torch.optim.Adam(model.parameters(), lr=self.lr)
        loss_fn = nn.CrossEntropyLoss()
        for epoch in range(self.epochs):
            model.train()
            for batch_idx, (x, y) in enumerate(loader):
                x, y = x.to(self.device), y.to(self.device)
                pred = model(x)
                loss = loss_fn(pred, y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                print(f"epoch {epoch} batch {batch_idx} loss {loss.item():.4f}")


def write_synthetic_recordings(root, n_subjects=2, n_trials=2, seconds=4, sampling_rate=1000):
    rng = np.random.default_rng(0)
    rows = []
    t = np.arange(seconds * sampling_rate) / sampling_rate
    for s in range(n_subjects):
        for tr in range(n_trials):
            label = (s + tr) % 2
            alpha = np.sin(2 * np.pi * 10 * t) * (2.0 if label else 0.5)
            data = {ch: alpha + rng.normal(0, 1, t.shape) for ch in CHANNEL_LIST}
            path = os.path.join(root, f"sub{s}_trial{tr}.csv")
            pd.DataFrame(data).to_csv(path, index=False)
            rows.append({"subject_id": f"sub{s}", "trial_id": tr, "label": label, "file_path": path})
    csv_path = os.path.join(root, "data.csv")
    pd.DataFrame(rows).to_csv(csv_path, index=False)
    return csv_path


if __name__ == "__main__":
    torch.manual_seed(0)
    root = tempfile.mkdtemp()
    csv_path = write_synthetic_recordings(root)
    EEGEmotionExperiment(csv_path, io_path=os.path.join(root, "io")).train()
