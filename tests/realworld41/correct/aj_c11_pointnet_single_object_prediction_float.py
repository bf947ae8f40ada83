"""PointNet classification on a ModelNet10-style folder of .off meshes (nikitakaraevv/pointnet as in aj11: PointSampler / Normalize / ToTensor with torch.from_numpy of the float64 NumPy cloud, PointCloudData, PointNet, the training loop's .float()) with the single-object prediction converting its input the way the training loop does, data['pointcloud'].to(device).float(), the answer given in pointnet issue #14
source: https://github.com/nikitakaraevv/pointnet/issues/14
reported-error: (none filed; the fixed situation of aj11: .float() on the sampled cloud before pointnet(inputs.transpose(1,2)))
outcome: ok
root-cause: -
expect: none
"""
import argparse
import math
import os
import random
import tempfile
from pathlib import Path

import numpy as np

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(42)


# ---- source/utils.py
def read_off(file):
    if "OFF" != file.readline().strip():
        raise ValueError("Not a valid OFF header")
    n_verts, n_faces, __ = tuple([int(s) for s in file.readline().strip().split(" ")])
    verts = [[float(s) for s in file.readline().strip().split(" ")] for i_vert in range(n_verts)]
    faces = [[int(s) for s in file.readline().strip().split(" ")][1:] for i_face in range(n_faces)]
    return verts, faces


class PointSampler(object):
    def __init__(self, output_size):
        assert isinstance(output_size, int)
        self.output_size = output_size

    def triangle_area(self, pt1, pt2, pt3):
        side_a = np.linalg.norm(pt1 - pt2)
        side_b = np.linalg.norm(pt2 - pt3)
        side_c = np.linalg.norm(pt3 - pt1)
        s = 0.5 * (side_a + side_b + side_c)
        return max(s * (s - side_a) * (s - side_b) * (s - side_c), 0) ** 0.5

    def sample_point(self, pt1, pt2, pt3):
        # barycentric coordinates on a triangle
        s, t = sorted([random.random(), random.random()])
        f = lambda i: s * pt1[i] + (t - s) * pt2[i] + (1 - t) * pt3[i]
        return (f(0), f(1), f(2))

    def __call__(self, mesh):
        verts, faces = mesh
        verts = np.array(verts)
        areas = np.zeros((len(faces)))
        for i in range(len(areas)):
            areas[i] = (self.triangle_area(verts[faces[i][0]], verts[faces[i][1]], verts[faces[i][2]]))
        sampled_faces = (random.choices(faces, weights=areas, cum_weights=None, k=self.output_size))
        sampled_points = np.zeros((self.output_size, 3))
        for i in range(len(sampled_faces)):
            sampled_points[i] = (self.sample_point(verts[sampled_faces[i][0]], verts[sampled_faces[i][1]],
                                                   verts[sampled_faces[i][2]]))
        return sampled_points


class Normalize(object):
    def __call__(self, pointcloud):
        assert len(pointcloud.shape) == 2
        norm_pointcloud = pointcloud - np.mean(pointcloud, axis=0)
        norm_pointcloud /= np.max(np.linalg.norm(norm_pointcloud, axis=1))
        return norm_pointcloud


class RandRotation_z(object):
    def __call__(self, pointcloud):
        assert len(pointcloud.shape) == 2
        theta = random.random() * 2. * math.pi
        rot_matrix = np.array([[math.cos(theta), -math.sin(theta), 0],
                               [math.sin(theta), math.cos(theta), 0],
                               [0, 0, 1]])
        return rot_matrix.dot(pointcloud.T).T


class RandomNoise(object):
    def __call__(self, pointcloud):
        assert len(pointcloud.shape) == 2
        noise = np.random.normal(0, 0.02, (pointcloud.shape))
        return pointcloud + noise


class ToTensor(object):
    def __call__(self, pointcloud):
        assert len(pointcloud.shape) == 2
        return torch.from_numpy(pointcloud)


class Compose:  # torchvision.transforms.Compose
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, x):
        for t in self.transforms:
            x = t(x)
        return x


# ---- source/dataset.py
def default_transforms():
    return Compose([PointSampler(1024), Normalize(), ToTensor()])


class PointCloudData(Dataset):
    def __init__(self, root_dir, valid=False, folder="train", transform=default_transforms()):
        self.root_dir = root_dir
        folders = [dir for dir in sorted(os.listdir(root_dir)) if os.path.isdir(root_dir / dir)]
        self.classes = {folder: i for i, folder in enumerate(folders)}
        self.transforms = transform if not valid else default_transforms()
        self.valid = valid
        self.files = []
        for category in self.classes.keys():
            new_dir = root_dir / Path(category) / folder
            for file in sorted(os.listdir(new_dir)):
                if file.endswith(".off"):
                    self.files.append({"pcd_path": new_dir / file, "category": category})

    def __len__(self):
        return len(self.files)

    def __preproc__(self, file):
        verts, faces = read_off(file)
        if self.transforms:
            pointcloud = self.transforms((verts, faces))
        return pointcloud

    def __getitem__(self, idx):
        pcd_path = self.files[idx]["pcd_path"]
        category = self.files[idx]["category"]
        with open(pcd_path, "r") as f:
            pointcloud = self.__preproc__(f)
        return {"pointcloud": pointcloud, "category": self.classes[category]}


# ---- source/model.py
class Tnet(nn.Module):
    def __init__(self, k=3):
        super().__init__()
        self.k = k
        self.conv1 = nn.Conv1d(k, 64, 1)
        self.conv2 = nn.Conv1d(64, 128, 1)
        self.conv3 = nn.Conv1d(128, 1024, 1)
        self.fc1 = nn.Linear(1024, 512)
        self.fc2 = nn.Linear(512, 256)
        self.fc3 = nn.Linear(256, k * k)
        self.bn1 = nn.BatchNorm1d(64)
        self.bn2 = nn.BatchNorm1d(128)
        self.bn3 = nn.BatchNorm1d(1024)
        self.bn4 = nn.BatchNorm1d(512)
        self.bn5 = nn.BatchNorm1d(256)

    def forward(self, input):
        # input.shape == (bs,n,3)
        bs = input.size(0)
        xb = F.relu(self.bn1(self.conv1(input)))
        xb = F.relu(self.bn2(self.conv2(xb)))
        xb = F.relu(self.bn3(self.conv3(xb)))
        pool = nn.MaxPool1d(xb.size(-1))(xb)
        flat = nn.Flatten(1)(pool)
        xb = F.relu(self.bn4(self.fc1(flat)))
        xb = F.relu(self.bn5(self.fc2(xb)))
        # initialize as identity
        init = torch.eye(self.k, requires_grad=True).repeat(bs, 1, 1)
        if xb.is_cuda:
            init = init.cuda()
        matrix = self.fc3(xb).view(-1, self.k, self.k) + init
        return matrix


class Transform(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_transform = Tnet(k=3)
        self.feature_transform = Tnet(k=64)
        self.conv1 = nn.Conv1d(3, 64, 1)
        self.conv2 = nn.Conv1d(64, 128, 1)
        self.conv3 = nn.Conv1d(128, 1024, 1)
        self.bn1 = nn.BatchNorm1d(64)
        self.bn2 = nn.BatchNorm1d(128)
        self.bn3 = nn.BatchNorm1d(1024)

    def forward(self, input):
        matrix3x3 = self.input_transform(input)
        xb = torch.bmm(torch.transpose(input, 1, 2), matrix3x3).transpose(1, 2)
        xb = F.relu(self.bn1(self.conv1(xb)))
        matrix64x64 = self.feature_transform(xb)
        xb = torch.bmm(torch.transpose(xb, 1, 2), matrix64x64).transpose(1, 2)
        xb = F.relu(self.bn2(self.conv2(xb)))
        xb = self.bn3(self.conv3(xb))
        xb = nn.MaxPool1d(xb.size(-1))(xb)
        output = nn.Flatten(1)(xb)
        return output, matrix3x3, matrix64x64


class PointNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.transform = Transform()
        self.fc1 = nn.Linear(1024, 512)
        self.fc2 = nn.Linear(512, 256)
        self.fc3 = nn.Linear(256, classes)
        self.bn1 = nn.BatchNorm1d(512)
        self.bn2 = nn.BatchNorm1d(256)
        self.dropout = nn.Dropout(p=0.3)
        self.logsoftmax = nn.LogSoftmax(dim=1)

    def forward(self, input):
        xb, matrix3x3, matrix64x64 = self.transform(input)
        xb = F.relu(self.bn1(self.fc1(xb)))
        xb = F.relu(self.bn2(self.dropout(self.fc2(xb))))
        output = self.fc3(xb)
        return self.logsoftmax(output), matrix3x3, matrix64x64


# ---- train.py
def pointnetloss(outputs, labels, m3x3, m64x64, alpha=0.0001):
    criterion = torch.nn.NLLLoss()
    bs = outputs.size(0)
    id3x3 = torch.eye(3, requires_grad=True).repeat(bs, 1, 1)
    id64x64 = torch.eye(64, requires_grad=True).repeat(bs, 1, 1)
    if outputs.is_cuda:
        id3x3 = id3x3.cuda()
        id64x64 = id64x64.cuda()
    diff3x3 = id3x3 - torch.bmm(m3x3, m3x3.transpose(1, 2))
    diff64x64 = id64x64 - torch.bmm(m64x64, m64x64.transpose(1, 2))
    return criterion(outputs, labels) + alpha * (torch.norm(diff3x3) + torch.norm(diff64x64)) / float(bs)


def train(args):
    path = Path(args.root_dir)
    train_transforms = Compose([PointSampler(1024), Normalize(), RandRotation_z(), RandomNoise(), ToTensor()])
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    print(device)
    pointnet = PointNet()
    pointnet.to(device)
    optimizer = torch.optim.Adam(pointnet.parameters(), lr=args.lr)

    train_ds = PointCloudData(path, transform=train_transforms)
    valid_ds = PointCloudData(path, valid=True, folder="test", transform=train_transforms)
    print("Train dataset size: ", len(train_ds))
    print("Valid dataset size: ", len(valid_ds))
    print("Number of classes: ", len(train_ds.classes))
    train_loader = DataLoader(dataset=train_ds, batch_size=args.batch_size, shuffle=True)
    valid_loader = DataLoader(dataset=valid_ds, batch_size=args.batch_size * 2)

    print("Start training")
    for epoch in range(args.epochs):
        pointnet.train()
        running_loss = 0.0
        for i, data in enumerate(train_loader, 0):
            inputs, labels = data["pointcloud"].to(device).float(), data["category"].to(device)
            optimizer.zero_grad()
            outputs, m3x3, m64x64 = pointnet(inputs.transpose(1, 2))
            loss = pointnetloss(outputs, labels, m3x3, m64x64)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        print("[Epoch: %d], loss: %.3f" % (epoch + 1, running_loss / len(train_loader)))

        pointnet.eval()
        correct = total = 0
        with torch.no_grad():
            for data in valid_loader:
                inputs, labels = data["pointcloud"].to(device).float(), data["category"].to(device)
                outputs, __, __ = pointnet(inputs.transpose(1, 2))
                _, predicted = torch.max(outputs.data, 1)
                total += labels.size(0)
                correct += (predicted == labels).sum().item()
        print("Valid accuracy: %d %%" % (100. * correct / total))
    return pointnet, train_ds.classes, device


# ---- the reporter's notebook cell: classify a single object
def predict_one(pointnet, off_path, classes, device):
    with open(off_path, "r") as f:
        verts, faces = read_off(f)
    pointcloud = PointSampler(3000)((verts, faces))
    pointcloud = Normalize()(pointcloud)
    data = {"pointcloud": ToTensor()(pointcloud).unsqueeze(0)}

    pointnet.eval()
    with torch.no_grad():
        inputs = data["pointcloud"].to(device).float()
        outputs, __, __ = pointnet(inputs.transpose(1, 2))
        _, preds = torch.max(outputs.data, 1)
    inv = {v: k for k, v in classes.items()}
    print("prediction:", preds.cpu().numpy(), inv[int(preds[0])])


def write_box_off(path, sx, sy, sz):
    v = [(x, y, z) for x in (0, sx) for y in (0, sy) for z in (0, sz)]
    f = [(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1),
         (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3)]
    with open(path, "w") as fh:
        fh.write("OFF\n{} {} 0\n".format(len(v), len(f)))
        fh.writelines("{:.4f} {:.4f} {:.4f}\n".format(*p) for p in v)
        fh.writelines("3 {} {} {}\n".format(*t) for t in f)


def make_modelnet(root, per_split=(4, 2), seed=0):
    rng = np.random.default_rng(seed)
    shapes = {"bed": (2.0, 1.4, 0.5), "chair": (0.5, 0.5, 1.0), "table": (1.5, 0.9, 0.8)}
    for cls, (sx, sy, sz) in shapes.items():
        for folder, n in zip(("train", "test"), per_split):
            os.makedirs(root / cls / folder)
            for k in range(n):
                s = rng.uniform(0.8, 1.2, 3)
                write_box_off(root / cls / folder / "{}_{:04d}.off".format(cls, k), sx * s[0], sy * s[1], sz * s[2])


if __name__ == "__main__":
    torch.manual_seed(0)
    np.random.seed(0)
    root = Path(tempfile.mkdtemp()) / "ModelNet10"
    make_modelnet(root)
    parser = argparse.ArgumentParser()
    parser.add_argument("--root_dir", default=str(root), type=str)
    parser.add_argument("--batch_size", default=4, type=int)
    parser.add_argument("--lr", default=0.001, type=float)
    parser.add_argument("--epochs", default=1, type=int)
    args = parser.parse_args([])
    pointnet, classes, device = train(args)
    predict_one(pointnet, root / "chair" / "test" / "chair_0001.off", classes, device)
