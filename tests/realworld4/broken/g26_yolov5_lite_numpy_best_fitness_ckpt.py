"""YOLOv5-style training checkpoint: best_fitness comes out of fitness() as a NumPy array and is pickled into last.pt; resuming with torch.load's default weights_only=True refuses it
source: https://github.com/ppogg/YOLOv5-Lite/issues/277
reported-error: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy.core.multiarray._reconstruct was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 54
root-cause: line 54
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


def fitness(x):
    # Model fitness as a weighted combination of metrics: [P, R, mAP@0.5, mAP@0.5:0.95]
    w = [0.0, 0.0, 0.1, 0.9]
    return (x[:, :4] * w).sum(1)


class TinyDetector(nn.Module):
    def __init__(self, nc=2):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.SiLU(), nn.Conv2d(8, 3 * (nc + 5), 1))

    def forward(self, x):
        return self.model(x)


def train(hyp, opt, wdir):
    model = TinyDetector()
    optimizer = torch.optim.SGD(model.parameters(), lr=hyp['lr0'], momentum=hyp['momentum'])
    best_fitness = 0.0
    for epoch in range(opt['epochs']):
        imgs = torch.rand(4, 3, 64, 64)
        loss = model(imgs).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        results = (0.5, 0.4, 0.3 + 0.01 * epoch, 0.2 + 0.01 * epoch, loss.item(), 0.0, 0.0)
        fi = fitness(np.array(results).reshape(1, -1))  # weighted combination of [P, R, mAP@.5, mAP@.5-.95]
        if fi > best_fitness:
            best_fitness = fi  # root-cause-alt
        ckpt = {'epoch': epoch,
                'best_fitness': best_fitness,
                'model': model.state_dict(),
                'optimizer': optimizer.state_dict()}
        torch.save(ckpt, os.path.join(wdir, 'last.pt'))
    return os.path.join(wdir, 'last.pt')


def attempt_load(weights, map_location=None):
    ckpt = torch.load(weights, map_location=map_location)  # root-cause  # fails-here
    model = TinyDetector()
    model.load_state_dict(ckpt['model'])
    return model.float().eval(), ckpt


if __name__ == '__main__':
    hyp = {'lr0': 0.01, 'momentum': 0.937}
    opt = {'epochs': 3}
    wdir = tempfile.mkdtemp()
    last = train(hyp, opt, wdir)
    device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
    model, ckpt = attempt_load(last, map_location=device)  # load FP32 model
    print('resuming from epoch', ckpt['epoch'] + 1, 'best_fitness', ckpt['best_fitness'])
