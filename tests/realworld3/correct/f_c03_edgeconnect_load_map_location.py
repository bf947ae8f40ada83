"""edge-connect generator checkpoint loaded with map_location=config DEVICE
source: https://github.com/knazeri/edge-connect/issues/18
reported-error: none (this is the fix given in the report thread)
outcome: ok
root-cause: none
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn


class EdgeGenerator(nn.Module):
    def __init__(self, residual_blocks=2):
        super(EdgeGenerator, self).__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 7, padding=3), nn.InstanceNorm2d(16), nn.ReLU(True))
        self.middle = nn.Sequential(*[nn.Conv2d(16, 16, 3, padding=1) for _ in range(residual_blocks)])
        self.decoder = nn.Sequential(nn.Conv2d(16, 1, 7, padding=3))

    def forward(self, x):
        return torch.sigmoid(self.decoder(self.middle(self.encoder(x))))


class BaseModel(nn.Module):
    def __init__(self, name, config):
        super(BaseModel, self).__init__()
        self.name = name
        self.config = config
        self.iteration = 0
        self.gen_weights_path = os.path.join(config['PATH'], name + '_gen.pth')

    def load(self):
        if os.path.exists(self.gen_weights_path):
            print('Loading %s generator...' % self.name)
            data = torch.load(self.gen_weights_path, map_location=self.config['DEVICE'])
            self.generator.load_state_dict(data['generator'])
            self.iteration = data['iteration']

    def save(self):
        print('\nsaving %s...\n' % self.name)
        torch.save({'iteration': self.iteration, 'generator': self.generator.state_dict()}, self.gen_weights_path)


class EdgeModel(BaseModel):
    def __init__(self, config):
        super(EdgeModel, self).__init__('EdgeModel', config)
        self.generator = EdgeGenerator()


config = {'PATH': tempfile.mkdtemp(), 'DEVICE': torch.device('cuda' if torch.cuda.is_available() else 'cpu')}

# training machine (GPU) saves the checkpoint
train_model = EdgeModel(config).to(config['DEVICE'])
train_model.iteration = 1000
train_model.save()

# test.py: the same code later runs on a CPU-only machine
edge_model = EdgeModel(config).to(config['DEVICE'])
edge_model.load()
edge_model.eval()
with torch.no_grad():
    out = edge_model.generator(torch.rand(1, 3, 32, 32, device=config['DEVICE']))
print('start testing...', out.shape, 'End test....')
