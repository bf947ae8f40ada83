"""GraphCMR utils/base_trainer.py: `load_pretrained` runs `torch.load(checkpoint_file)` at the end of `init_fn`, after `Mesh()`

source: https://github.com/nkolot/GraphCMR/blob/master/utils/base_trainer.py
false-alarm: DG010 at `torch.load(checkpoint_file)` ("when train.py runs it"): the trainer picks
`torch.device('cuda' if torch.cuda.is_available() else 'cpu')`, but `init_fn` first builds `Mesh()`, whose constructor
has the default `device=torch.device('cuda')` and moves its adjacency and template tensors with `.to(device)`, so on a
CPU-only machine training stops there ("Torch not compiled with CUDA enabled") before the pretrained checkpoint is
loaded; with a GPU the CUDA-saved checkpoint loads. (`--resume`'s `CheckpointSaver.load_checkpoint` has the same load
and is not reported.) (scan 46)
Like the original, this needs a GPU to get past `Mesh()`.
"""
import argparse

import torch
import torch.nn as nn


class Mesh(object):
    def __init__(self, num_downsampling=1, nsize=1, device=torch.device('cuda')):
        self._A = [torch.eye(6).to_sparse() for _ in range(2)]
        self._A = [a.to(device) for a in self._A]
        ref_vertices = torch.rand(6, 3)
        ref_vertices -= 0.5 * (ref_vertices.max(dim=0)[0] + ref_vertices.min(dim=0)[0])[None]
        self._ref_vertices = ref_vertices.to(device)
        self.faces = torch.arange(12).view(4, 3).int().to(device)

    @property
    def adjmat(self):
        return self._A[0]

    @property
    def ref_vertices(self):
        return self._ref_vertices


class GraphCNN(nn.Module):
    def __init__(self, A, ref_vertices, num_channels=8):
        super(GraphCNN, self).__init__()
        self.A = A
        self.ref_vertices = ref_vertices
        self.lin = nn.Linear(6, num_channels)

    def forward(self, x):
        return self.lin(torch.sparse.mm(self.A, self.ref_vertices.t()).t() + x)


class BaseTrainer(object):
    def __init__(self, options):
        self.options = options
        self.device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
        self.init_fn()

    def load_pretrained(self, checkpoint_file=None):
        if checkpoint_file is not None:
            checkpoint = torch.load(checkpoint_file)
            for model in self.models_dict:
                if model in checkpoint:
                    self.models_dict[model].load_state_dict(checkpoint[model])
                    print('Checkpoint loaded')

    def train(self):
        for step in range(2):
            x = torch.randn(3, 6).to(self.device)
            loss = self.graph_cnn(x).pow(2).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            print(step, loss.item())


class Trainer(BaseTrainer):
    def init_fn(self):
        self.mesh = Mesh()
        self.faces = self.mesh.faces.to(self.device)
        self.graph_cnn = GraphCNN(self.mesh.adjmat, self.mesh.ref_vertices.t()).to(self.device)
        self.optimizer = torch.optim.Adam(params=list(self.graph_cnn.parameters()), lr=1e-3)
        self.models_dict = {'graph_cnn': self.graph_cnn}
        if self.options.pretrained_checkpoint is not None:
            self.load_pretrained(checkpoint_file=self.options.pretrained_checkpoint)


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--pretrained_checkpoint', default=None, help='Load a pretrained Graph CNN when starting training')
    options = parser.parse_args()
    trainer = Trainer(options)
    trainer.train()
