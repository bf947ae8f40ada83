import numpy as np
import torch
from torch.utils.data import Dataset


class VideoDataset(Dataset):
    def __init__(self, dataset="ucf101", split="train", clip_len=16, num_classes=5, n_videos=12):
        self.clip_len = clip_len
        self.split = split
        self.resize_height, self.resize_width, self.crop_size = 20, 20, 16
        rng = np.random.default_rng(0)
        labels = [f"class_{i % num_classes}" for i in range(n_videos)]
        self.fnames = [f"v_{lab}_g{i:02d}" for i, lab in enumerate(labels)]
        self.videos = [rng.random((clip_len + 2, self.resize_height, self.resize_width, 3)) * 255 for _ in labels]
        self.label2index = {label: index for index, label in enumerate(sorted(set(labels)))}
        # Convert the list of label names into an array of label indices
        self.label_array = np.array([self.label2index[label] for label in labels], dtype=np.int32)

    def __len__(self):
        return len(self.fnames)

    def __getitem__(self, index):
        buffer = self.crop(self.videos[index], self.clip_len, self.crop_size)
        labels = np.array(self.label_array[index])
        buffer = self.normalize(buffer)
        buffer = self.to_tensor(buffer)
        return torch.from_numpy(buffer), torch.from_numpy(labels).long()

    def normalize(self, buffer):
        return (buffer - np.array([[[90.0, 98.0, 102.0]]])).astype(np.float32)

    def to_tensor(self, buffer):
        return buffer.transpose((3, 0, 1, 2))

    def crop(self, buffer, clip_len, crop_size):
        time_index = np.random.randint(buffer.shape[0] - clip_len)
        height_index = np.random.randint(buffer.shape[1] - crop_size)
        width_index = np.random.randint(buffer.shape[2] - crop_size)
        return buffer[time_index:time_index + clip_len, height_index:height_index + crop_size,
                      width_index:width_index + crop_size, :]
