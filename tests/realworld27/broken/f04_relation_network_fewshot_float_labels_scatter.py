"""Few-shot Relation Network training (LearningToCompare_FSL miniimagenet_train_few_shot layout): the task generator keeps the episode labels in a NumPy array created with np.zeros (float64), the DataLoader collates them into a DoubleTensor, and the one-hot MSE target is built with scatter_(1, batch_labels.view(-1, 1), 1), which needs an integer index
source: https://github.com/floodsung/LearningToCompare_FSL/issues/38
reported-error: IndexError: scatter_(): Expected dtype int64 for index. (fix from the thread: add .long() to batch_labels.view(-1,1) in that line)
outcome: RuntimeError: scatter(): Expected dtype int32/int64 for index at line 100
root-cause: line 30
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

FEATURE_DIM = 16
RELATION_DIM = 8
CLASS_NUM = 5
SAMPLE_NUM_PER_CLASS = 1
BATCH_NUM_PER_CLASS = 3
EPISODE = 3
LEARNING_RATE = 0.001


# ---- task_generator.py
class MiniImagenetTask:
    def __init__(self, num_classes, train_num, test_num, rng):
        self.num_classes = num_classes
        class_ids = rng.choice(20, num_classes, replace=False)
        n_train, n_test = num_classes * train_num, num_classes * test_num
        self.train_images = rng.standard_normal((n_train, 3, 21, 21)).astype(np.float32)
        self.test_images = rng.standard_normal((n_test, 3, 21, 21)).astype(np.float32)
        self.train_labels = np.zeros(n_train)  # root-cause
        self.test_labels = np.zeros(n_test)
        for i, _ in enumerate(class_ids):
            self.train_labels[i * train_num:(i + 1) * train_num] = i
            self.test_labels[i * test_num:(i + 1) * test_num] = i


class MiniImagenet(Dataset):
    def __init__(self, task, split="train"):
        self.images = task.train_images if split == "train" else task.test_images
        self.labels = task.train_labels if split == "train" else task.test_labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return torch.from_numpy(self.images[idx]), self.labels[idx]


def get_mini_imagenet_data_loader(task, num_per_class=1, split="train", shuffle=False):
    dataset = MiniImagenet(task, split=split)
    return DataLoader(dataset, batch_size=num_per_class * task.num_classes, shuffle=shuffle)


# ---- models
class CNNEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Conv2d(3, FEATURE_DIM, 3, padding=1), nn.BatchNorm2d(FEATURE_DIM), nn.ReLU(), nn.MaxPool2d(2))
        self.layer2 = nn.Sequential(nn.Conv2d(FEATURE_DIM, FEATURE_DIM, 3, padding=1), nn.BatchNorm2d(FEATURE_DIM), nn.ReLU())

    def forward(self, x):
        return self.layer2(self.layer1(x))


class RelationNetwork(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Conv2d(FEATURE_DIM * 2, FEATURE_DIM, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2))
        self.fc1 = nn.Linear(input_size * 4, hidden_size)
        self.fc2 = nn.Linear(hidden_size, 1)

    def forward(self, x):
        out = self.layer1(x).view(x.size(0), -1)
        return torch.sigmoid(self.fc2(torch.relu(self.fc1(out))))


def main():
    rng = np.random.default_rng(0)
    feature_encoder = CNNEncoder()
    relation_network = RelationNetwork(FEATURE_DIM, RELATION_DIM)
    feature_encoder_optim = torch.optim.Adam(feature_encoder.parameters(), lr=LEARNING_RATE)
    relation_network_optim = torch.optim.Adam(relation_network.parameters(), lr=LEARNING_RATE)
    mse = nn.MSELoss()

    for episode in range(EPISODE):
        task = MiniImagenetTask(CLASS_NUM, SAMPLE_NUM_PER_CLASS, BATCH_NUM_PER_CLASS, rng)
        sample_dataloader = get_mini_imagenet_data_loader(task, num_per_class=SAMPLE_NUM_PER_CLASS, split="train")
        batch_dataloader = get_mini_imagenet_data_loader(task, num_per_class=BATCH_NUM_PER_CLASS, split="test", shuffle=True)
        samples, sample_labels = next(iter(sample_dataloader))
        batches, batch_labels = next(iter(batch_dataloader))

        sample_features = feature_encoder(samples)
        batch_features = feature_encoder(batches)
        n_query = BATCH_NUM_PER_CLASS * CLASS_NUM
        sample_features_ext = sample_features.unsqueeze(0).repeat(n_query, 1, 1, 1, 1)
        batch_features_ext = torch.transpose(batch_features.unsqueeze(0).repeat(CLASS_NUM, 1, 1, 1, 1), 0, 1)
        relation_pairs = torch.cat((sample_features_ext, batch_features_ext), 2).view(-1, FEATURE_DIM * 2, 10, 10)
        relations = relation_network(relation_pairs).view(-1, CLASS_NUM)

        one_hot_labels = torch.zeros(n_query, CLASS_NUM).scatter_(1, batch_labels.view(-1, 1), 1)  # fails-here
        loss = mse(relations, one_hot_labels)

        feature_encoder.zero_grad()
        relation_network.zero_grad()
        loss.backward()
        feature_encoder_optim.step()
        relation_network_optim.step()
        print(f"episode: {episode + 1} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
