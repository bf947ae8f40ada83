"""BasicSR ESRGAN inference: torch.load of a `params` checkpoint that BasicSR always writes with CPU tensors
source: https://github.com/xinntao/BasicSR/blob/d21eac885b6de90a7adef7cc59e937dbdbb200b1/inference/inference_esrgan.py#L30
false-alarm: DG010 at line 65: the checkpoint format ({'params': state_dict}) is written by BaseModel.save_network, which replaces every tensor with param.cpu() before torch.save (line 48 here), so the file holds only CPU storages and loads on a CPU-only machine without map_location
"""
# Reduction: RRDBNet is replaced by a two-conv network, BaseModel by its save_network method, and the
# image folder by random tensors. Training runs on the GPU when one is present, as in BasicSR.
import os
import tempfile

import torch
from torch import nn


class RRDBNet(nn.Module):

    def __init__(self, num_in_ch, num_out_ch, num_feat=8):
        super(RRDBNet, self).__init__()
        self.conv_first = nn.Conv2d(num_in_ch, num_feat, 3, 1, 1)
        self.conv_last = nn.Conv2d(num_feat, num_out_ch, 3, 1, 1)
        self.lrelu = nn.LeakyReLU(negative_slope=0.2, inplace=True)

    def forward(self, x):
        return self.conv_last(self.lrelu(self.conv_first(x)))


class SRModel():

    def __init__(self, opt):
        self.opt = opt
        self.device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
        self.net_g = RRDBNet(3, 3).to(self.device)
        self.optimizer_g = torch.optim.Adam(self.net_g.parameters(), lr=2e-4)

    def optimize_parameters(self, lq, gt):
        self.optimizer_g.zero_grad()
        l_pix = nn.functional.l1_loss(self.net_g(lq.to(self.device)), gt.to(self.device))
        l_pix.backward()
        self.optimizer_g.step()

    def save_network(self, net, net_label, current_iter, param_key='params'):
        save_filename = f'{net_label}_{current_iter}.pth'
        save_path = os.path.join(self.opt['path']['models'], save_filename)
        save_dict = {}
        state_dict = net.state_dict()
        for key, param in state_dict.items():
            if key.startswith('module.'):  # remove unnecessary 'module.'
                key = key[7:]
            state_dict[key] = param.cpu()
        save_dict[param_key] = state_dict
        torch.save(save_dict, save_path)
        return save_path


def train(models_dir):
    model = SRModel({'path': {'models': models_dir}})
    for _ in range(2):
        model.optimize_parameters(torch.rand(2, 3, 8, 8), torch.rand(2, 3, 8, 8))
    return model.save_network(model.net_g, 'net_g', 2)


def main(model_path):
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    # set up model
    model = RRDBNet(num_in_ch=3, num_out_ch=3)
    model.load_state_dict(torch.load(model_path)['params'], strict=True)
    model.eval()
    model = model.to(device)

    img = torch.rand(3, 8, 8).float()
    img = img.unsqueeze(0).to(device)
    # inference
    with torch.no_grad():
        output = model(img).data.squeeze().float().cpu().clamp_(0, 1).numpy()
    print('output', output.shape)


if __name__ == '__main__':
    with tempfile.TemporaryDirectory() as tmp:
        main(train(tmp))
