import torch
import torch.nn as nn
import torch.nn.functional as F

from . import config


class RegisNet(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.dense1 = nn.Conv2d(2, channels, 3, padding=1)
        self.dense2 = nn.Conv2d(channels, channels, 3, padding=1)
        self.out = nn.Conv2d(channels, 2, 3, padding=1)

    def forward(self, x, y):
        h = F.relu(self.dense1(torch.cat([x, y], dim=1)))  # fails-here
        h = F.relu(self.dense2(h))
        return self.out(h)


class InverseConsistentNet(nn.Module):
    def __init__(self, network, lmbda=0.5):
        super().__init__()
        self.regis_net = network
        self.lmbda = lmbda

    def warp(self, image, phi):
        grid = phi.permute(0, 2, 3, 1)
        return F.grid_sample(image, grid, padding_mode="border", align_corners=True)

    def identity(self, image):
        n, _, h, w = image.shape
        theta = torch.eye(2, 3, device=config.device).unsqueeze(0).expand(n, 2, 3)
        return F.affine_grid(theta, (n, 2, h, w), align_corners=True).permute(0, 3, 1, 2)

    def forward(self, image_A, image_B):
        ident = self.identity(image_A)
        phi_AB = ident + self.regis_net(image_A, image_B)
        phi_BA = ident + self.regis_net(image_B, image_A)
        warped_A = self.warp(image_A, phi_AB)
        warped_B = self.warp(image_B, phi_BA)
        similarity = ((warped_A - image_B) ** 2).mean() + ((warped_B - image_A) ** 2).mean()
        inverse_consistency = ((self.warp(phi_AB - ident, phi_BA) + (phi_BA - ident)) ** 2).mean()
        return similarity + self.lmbda * inverse_consistency
