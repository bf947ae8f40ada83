"""LFW face-verification evaluation of MobileFaceNet (foamliu/MobileFaceNet as in ao04: lfw_eval.py's process / get_image / evaluate / lfw_test, config.py's device, the TorchScript export loaded with torch.jit.load) with the fix the thread points to: the scripted model is moved to config.device, the same device get_image and evaluate put every image pair on, so the evaluation runs on a GPU machine as on a CPU-only one
source: https://github.com/foamliu/MobileFaceNet/issues/6
reported-error: (none filed; the fixed situation of ao04)
outcome: ok
root-cause: -
expect: none
"""
import math
import os
import pickle
import tempfile
import time

import numpy as np
import torch
from torch import nn

# ---- config.py
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')  # sets device for model and PyTorch tensors
WORK = tempfile.mkdtemp()
os.makedirs(os.path.join(WORK, 'data'), exist_ok=True)

# ---- lfw_eval.py globals
angles_file = os.path.join(WORK, 'data/angles.txt')
lfw_pickle = os.path.join(WORK, 'data/lfw_funneled.pkl')
pair_file = os.path.join(WORK, 'data/lfw_test_pair.txt')


# ---- mobilefacenet.py (reduced: fewer bottlenecks, same block types: conv-bn-prelu, depthwise, GDC, linear embedding)
class ConvBlock(nn.Module):
    def __init__(self, inp, oup, k, s, p, dw=False, linear=False):
        super(ConvBlock, self).__init__()
        self.linear = linear
        self.conv = nn.Conv2d(inp, oup, k, s, p, groups=inp if dw else 1, bias=False)
        self.bn = nn.BatchNorm2d(oup)
        self.prelu = nn.PReLU(oup)

    def forward(self, x):
        x = self.bn(self.conv(x))
        if self.linear:
            return x
        return self.prelu(x)


class Bottleneck(nn.Module):
    def __init__(self, inp, oup, stride, expansion):
        super(Bottleneck, self).__init__()
        self.connect = stride == 1 and inp == oup
        self.conv = nn.Sequential(
            ConvBlock(inp, inp * expansion, 1, 1, 0),
            ConvBlock(inp * expansion, inp * expansion, 3, stride, 1, dw=True),
            ConvBlock(inp * expansion, oup, 1, 1, 0, linear=True),
        )

    def forward(self, x):
        if self.connect:
            return x + self.conv(x)
        return self.conv(x)


class MobileFaceNet(nn.Module):
    def __init__(self, embedding_size=128):
        super(MobileFaceNet, self).__init__()
        self.conv1 = ConvBlock(3, 16, 3, 2, 1)
        self.dw_conv1 = ConvBlock(16, 16, 3, 1, 1, dw=True)
        self.blocks = nn.Sequential(Bottleneck(16, 24, 2, 2), Bottleneck(24, 24, 1, 2), Bottleneck(24, 32, 2, 2))
        self.conv2 = ConvBlock(32, 64, 1, 1, 0)
        self.linear7 = ConvBlock(64, 64, 7, 1, 0, dw=True, linear=True)  # GDC over the 7x7 map
        self.linear1 = ConvBlock(64, embedding_size, 1, 1, 0, linear=True)

    def forward(self, x):
        x = self.conv1(x)
        x = self.dw_conv1(x)
        x = self.blocks(x)
        x = self.conv2(x)
        x = self.linear7(x)
        x = self.linear1(x)
        return x.view(x.size(0), -1)


# ---- data_gen.py data_transforms['valid'] (transforms.ToTensor + Normalize, re-typed for an HxWx3 uint8 array)
def valid_transform(img):
    x = torch.from_numpy(np.ascontiguousarray(img)).permute(2, 0, 1).float().div(255)
    mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
    return (x - mean) / std


data_transforms = {'valid': valid_transform}


# ---- utils.py align_face (re-typed: the synthetic "photo" is already a 112x112 face crop)
def align_face(full_path, landmarks):
    return np.load(full_path)


def get_central_face_attributes(full_path):
    return True, [[0, 0, 112, 112, 0.99]], [[38, 74, 56, 42, 70, 52, 52, 72, 92, 92]]


# ---- lfw_eval.py
def process(lfw_dir):
    subjects = sorted(d for d in os.listdir(lfw_dir) if os.path.isdir(os.path.join(lfw_dir, d)))
    file_names = []
    for i, sub in enumerate(subjects):
        folder = os.path.join(lfw_dir, sub)
        files = [f for f in sorted(os.listdir(folder)) if f.lower().endswith('.npy')]
        for file in files:
            file_names.append({'filename': os.path.join(folder, file), 'class_id': i, 'subject': sub})
    samples = []
    for item in file_names:
        is_valid, bounding_boxes, landmarks = get_central_face_attributes(item['filename'])
        if is_valid:
            samples.append({'class_id': item['class_id'], 'subject': item['subject'], 'full_path': item['filename'],
                            'bounding_boxes': bounding_boxes, 'landmarks': landmarks})
    with open(lfw_pickle, 'wb') as file:
        pickle.dump({'samples': samples}, file, pickle.HIGHEST_PROTOCOL)


def get_image(transformer, samples, file):
    filtered = [sample for sample in samples if file in sample['full_path'].replace('\\', '/')]
    assert (len(filtered) == 1), 'len(filtered): {} file:{}'.format(len(filtered), file)
    sample = filtered[0]
    img = align_face(sample['full_path'], sample['landmarks'])  # BGR
    img = img[..., ::-1]  # RGB
    img = transformer(img)
    img = img.to(device)
    return img


def evaluate(model):
    model.eval()
    with open(lfw_pickle, 'rb') as file:
        data = pickle.load(file)
    samples = data['samples']
    transformer = data_transforms['valid']
    with open(pair_file, 'r') as file:
        lines = file.readlines()
    angles = []
    elapsed = 0
    with torch.no_grad():
        for line in lines:
            tokens = line.split()
            img0 = get_image(transformer, samples, tokens[0])
            img1 = get_image(transformer, samples, tokens[1])
            imgs = torch.zeros([2, 3, 112, 112], dtype=torch.float, device=device)
            imgs[0] = img0
            imgs[1] = img1

            start = time.time()
            output = model(imgs)
            end = time.time()
            elapsed += end - start

            feature0 = output[0].cpu().numpy()
            feature1 = output[1].cpu().numpy()
            x0 = feature0 / np.linalg.norm(feature0)
            x1 = feature1 / np.linalg.norm(feature1)
            cosine = np.clip(np.dot(x0, x1), -1.0, 1.0)
            theta = math.acos(cosine) * 180 / math.pi
            angles.append('{} {}\n'.format(theta, tokens[2]))
    print('elapsed: {} ms'.format(elapsed / (len(lines) * 2) * 1000))
    with open(angles_file, 'w') as file:
        file.writelines(angles)


def read_angles():
    with open(angles_file) as file:
        return [(float(line.split()[0]), int(line.split()[1])) for line in file.readlines()]


def accuracy(threshold):
    data = read_angles()
    wrong = 0
    for angle, type in data:
        if type == 1:
            if angle > threshold:
                wrong += 1
        else:
            if angle <= threshold:
                wrong += 1
    return 1 - wrong / len(data)


def get_threshold():
    data = [{'angle': a, 'type': t} for a, t in read_angles()]
    min_error = len(data)
    min_threshold = 0
    for d in data:
        threshold = d['angle']
        type1 = len([s for s in data if s['angle'] <= threshold and s['type'] == 0])
        type2 = len([s for s in data if s['angle'] > threshold and s['type'] == 1])
        if type1 + type2 < min_error:
            min_error = type1 + type2
            min_threshold = threshold
    return min_threshold


def lfw_test(model, lfw_dir):
    print('Processing {}...'.format(lfw_pickle))
    process(lfw_dir)
    print('Evaluating {}...'.format(angles_file))
    evaluate(model)
    print('Calculating threshold...')
    thres = get_threshold()
    print('Calculating accuracy...')
    acc = accuracy(thres)
    print('Accuracy: {}%, threshold: {}'.format(acc * 100, thres))
    return acc, thres


# ---- synthetic LFW (funneled faces as 112x112 arrays) and export.py's scripted model
def make_lfw(root, rng, n_subjects=6, per_subject=3):
    lfw_dir = os.path.join(root, 'lfw_funneled')
    pairs = []
    for s in range(n_subjects):
        sub = 'Person_{}'.format(s)
        os.makedirs(os.path.join(lfw_dir, sub), exist_ok=True)
        base = rng.integers(0, 256, size=(112, 112, 3))
        for k in range(per_subject):
            img = np.clip(base + rng.normal(0, 20, size=base.shape), 0, 255).astype(np.uint8)
            np.save(os.path.join(lfw_dir, sub, '{}_{:04d}.npy'.format(sub, k + 1)), img)
    for s in range(n_subjects):
        a, b = 'Person_{}'.format(s), 'Person_{}'.format((s + 1) % n_subjects)
        pairs.append('{0}/{0}_0001.npy {0}/{0}_0002.npy 1\n'.format(a))
        pairs.append('{0}/{0}_0003.npy {1}/{1}_0001.npy 0\n'.format(a, b))
    with open(pair_file, 'w') as f:
        f.writelines(pairs)
    return lfw_dir


def export_scripted(path):
    torch.manual_seed(0)
    net = MobileFaceNet()
    net.eval()
    torch.jit.save(torch.jit.script(net), path)


if __name__ == "__main__":
    lfw_dir = make_lfw(os.path.join(WORK, 'data'), np.random.default_rng(0))
    scripted_model_file = os.path.join(WORK, 'mobilefacenet_scripted.pt')
    export_scripted(scripted_model_file)

    model = torch.jit.load(scripted_model_file)
    model = model.to(device)
    model.eval()

    acc, threshold = lfw_test(model, lfw_dir)
