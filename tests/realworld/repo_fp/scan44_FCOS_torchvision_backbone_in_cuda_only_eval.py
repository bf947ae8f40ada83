"""FCOS-PyTorch-37.2AP: `torch.load('./resnet50.pth')` of the backbone in a CUDA-only evaluation script

source: https://github.com/zhenghao977/FCOS-PyTorch-37.2AP/blob/master/model/backbone/resnet.py (run by coco_eval.py)
false-alarm: DG010 at `torch.load('./resnet50.pth')`: the file is torchvision's ImageNet ResNet-50 download
(`model_urls['resnet50']`, saved with CPU tensors), and the script that builds the detector with `pretrained=True`
is CUDA-only (`model.cuda()` unconditionally); the `torch.cuda.is_available()` test is a helper in the model's
forward (1 record in scan 44).
Like the original, this needs a GPU and a `./resnet50.pth` next to it.
"""
import torch
import torch.nn as nn


class ResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 7, 2, 3)

    def forward(self, x):
        return self.conv1(x)


def resnet50(pretrained=False):
    model = ResNet()
    if pretrained:
        model.load_state_dict(torch.load('./resnet50.pth'), strict=False)
    return model


def coords_fmap2orig(feature, stride):
    h, w = feature.shape[2:4]
    coords = torch.stack(torch.meshgrid(torch.arange(0, w * stride, stride, dtype=torch.float32),
                                        torch.arange(0, h * stride, stride, dtype=torch.float32)), -1)
    coords = coords.reshape(-1, 2) + stride // 2
    return coords


class FCOSDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = resnet50(pretrained=True)

    def forward(self, x):
        out = self.backbone(x)
        coords = coords_fmap2orig(out, 8)
        coords = coords.cuda() if torch.cuda.is_available() else coords
        return out, coords


if __name__ == "__main__":
    model = FCOSDetector()
    model = torch.nn.DataParallel(model)
    model = model.cuda().eval()
    with torch.no_grad():
        out, coords = model(torch.randn(1, 3, 64, 64).cuda())
    print(out.shape, coords.shape)
