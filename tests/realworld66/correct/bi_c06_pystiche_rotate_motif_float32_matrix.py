"""The pystiche-style style transfer of bi06 with the fix of PR #199: the motif matrices are built with torch.tensor(..., dtype=torch.float32), so the rotation matrix from np.cos/np.sin is float32 like the translation matrices, torch.chain_matmul composes them and the rotated style motifs feed the Gram targets; the NumPy trigonometry, the default-dtype torch.tensor of Python-float tuples and torch.inverse are kept
source: https://github.com/pystiche/pystiche/pull/199
reported-error: -
outcome: ok
root-cause: -
expect: none
"""
import functools
from typing import Optional, Tuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def force_batched_image(fn):
    @functools.wraps(fn)
    def wrapper(image, *args, **kwargs):
        is_batched = image.dim() == 4
        out = fn(image if is_batched else image.unsqueeze(0), *args, **kwargs)
        return out if is_batched else out.squeeze(0)
    return wrapper


def _create_motif_rotation_matrix(angle: float, clockwise: bool = False) -> torch.Tensor:
    angle = np.deg2rad(angle)
    if clockwise:
        angle *= -1.0
    rotation_matrix = (
        (np.cos(angle), -np.sin(angle), 0.0),
        (np.sin(angle), np.cos(angle), 0.0),
        (0.0, 0.0, 1.0),
    )
    return torch.tensor(rotation_matrix, dtype=torch.float32)


def _create_motif_translation_matrix(translation: Tuple[float, float], inverse: bool = False) -> torch.Tensor:
    if inverse:
        translation = [-val for val in translation]
    translation_vert, translation_horz = translation
    translation_matrix = ((1.0, 0.0, translation_horz), (0.0, 1.0, translation_vert), (0.0, 0.0, 1.0))
    return torch.tensor(translation_matrix, dtype=torch.float32)


def _calculate_image_center(image_size: Tuple[int, int]) -> Tuple[float, float]:
    height, width = image_size
    return height / 2.0, width / 2.0


def _transform_around_point(point: Tuple[float, float], transform_matrix: torch.Tensor) -> torch.Tensor:
    return torch.chain_matmul(
        _create_motif_translation_matrix(point, inverse=False),
        transform_matrix,
        _create_motif_translation_matrix(point, inverse=True),
    )


def _transform_coordinates(transform_matrix: torch.Tensor, image_size: Tuple[int, int]) -> torch.Tensor:
    vert_center, horz_center = _calculate_image_center(image_size)
    coordinate_transform_matrix = torch.tensor(
        ((horz_center, 0.0, horz_center), (0.0, -vert_center, vert_center), (0.0, 0.0, 1.0)))
    return torch.chain_matmul(torch.inverse(coordinate_transform_matrix), transform_matrix, coordinate_transform_matrix)


@force_batched_image
def rotate_motif(image: torch.Tensor, angle: float, clockwise: bool = False,
                 center: Optional[Tuple[float, float]] = None) -> torch.Tensor:
    image_size = tuple(image.shape[-2:])
    rotation_center = center if center is not None else _calculate_image_center(image_size)
    transform_matrix = _create_motif_rotation_matrix(angle, clockwise=clockwise)
    transform_matrix = _transform_around_point(rotation_center, transform_matrix)
    transform_matrix = _transform_coordinates(transform_matrix, image_size).to(image.device)
    theta = torch.inverse(transform_matrix)[:-1, :].unsqueeze(0).expand(image.shape[0], -1, -1)
    grid = F.affine_grid(theta, list(image.shape), align_corners=False)
    return F.grid_sample(image, grid, mode="bilinear", padding_mode="zeros", align_corners=False)


class Encoder(nn.Module):
    """Frozen multi-layer encoder standing in for pystiche's VGG: returns the activations of every block."""

    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU()),
                                     nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())])
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        feats = []
        for block in self.blocks:
            x = block(x)
            feats.append(x)
        return feats


def gram_matrix(enc):
    b, c, h, w = enc.shape
    f = enc.flatten(2)
    return torch.bmm(f, f.transpose(1, 2)) / (c * h * w)


encoder = Encoder().eval()
content_image = torch.rand(1, 3, 32, 32)
style_image = torch.rand(1, 3, 32, 32)

# style targets from a few rotated copies of the style motif
style_grams = []
for angle in (0.0, 30.0, 60.0):
    motif = rotate_motif(style_image, angle) if angle else style_image
    style_grams.append([gram_matrix(f) for f in encoder(motif)])
content_target = encoder(content_image)[1]

input_image = content_image.clone().requires_grad_(True)
optimizer = torch.optim.LBFGS([input_image], lr=1.0, max_iter=5)


def closure():
    optimizer.zero_grad()
    feats = encoder(input_image)
    content_loss = F.mse_loss(feats[1], content_target)
    style_loss = sum(F.mse_loss(gram_matrix(f), g[i]) for g in style_grams for i, f in enumerate(feats))
    loss = content_loss + 1e3 * style_loss
    loss.backward()
    return loss


for step in range(3):
    loss = optimizer.step(closure)
    print(f"step {step}: loss {loss.item():.5f}")
assert torch.isfinite(loss)
