"""easydl classification training then evaluation from the last checkpoint (xiaonanzzz/easy-deep-learning-pytorch layout: easydl/config.py's TrainingConfig objects drive easydl's trainer, a helper reloads the saved model): the trainer puts the TrainingConfig object itself into every checkpoint, and the reload's torch.load (weights_only=True by default since torch 2.6) refuses the class
source: https://github.com/xiaonanzzz/easy-deep-learning-pytorch/blob/022c1e5bfb594b97acc93622fd0890a17e277f2b/easydl/config.py
reported-error: (the repository's config classes are plain Python objects; a checkpoint that stores one fails to load with _pickle.UnpicklingError: Weights only load failed ... Unsupported global: GLOBAL easydl.config.TrainingConfig)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL easydl.config.TrainingConfig was not an allowed global by default. ... at easydl/utils.py:5
root-cause: easydl/trainer.py:21
expect: DG011
"""
import os
import tempfile

import torch
import torch.nn as nn

from easydl import RuntimeConfig, TrainingConfig, load_model_checkpoint, train_supervised_classification


def simple_net(num_classes=10):
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(),
                         nn.Linear(8 * 16, num_classes))


train_cfg = TrainingConfig(optimizer='sgd', lr=0.05, train_epoch=2)
run_cfg = RuntimeConfig(model_dir=tempfile.mkdtemp())
train_data = [(torch.randn(16, 3, 16, 16), torch.randint(0, 10, (16,))) for _ in range(4)]

model = train_supervised_classification(simple_net(), train_data, train_cfg, run_cfg)

last = os.path.join(run_cfg.model_dir, 'model_epoch_{}.torch'.format(train_cfg.train_epoch))
model, epoch = load_model_checkpoint(simple_net(), last, device=run_cfg.device)
model.eval()
x, y = train_data[0]
with torch.no_grad():
    acc = (model(x).argmax(1) == y).float().mean().item()
print('reloaded epoch {} accuracy {:.2f}'.format(epoch, acc))
