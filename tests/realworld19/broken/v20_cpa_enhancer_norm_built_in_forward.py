"""Plug-in image-enhancement block (CPA-Enhancer style) placed in front of a small detector backbone: the prompt block builds its 1x1 output projection inside forward() on every call, so its weight is created on the CPU while the model and the images were moved to the GPU
source: https://github.com/zyw-stu/CPA-Enhancer/issues/3
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
outcome: cuda-only: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same (the 1x1 Conv2d created in forward keeps CPU weights while the prompt is on cuda; wording varies with the torch version; not run on a GPU for this set) at line 26; on CPU: ok
root-cause: line 25
expect: DG009
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PromptGenBlock(nn.Module):
    def __init__(self, prompt_dim=16, prompt_len=4, size=8):
        super().__init__()
        self.prompt_param = nn.Parameter(torch.rand(1, prompt_len, prompt_dim, size, size))
        self.linear_layer = nn.Linear(prompt_dim, prompt_len)
        self.prompt_dim = prompt_dim

    def forward(self, x):
        b, c, h, w = x.shape
        weights = F.softmax(self.linear_layer(x.mean(dim=(-2, -1))), dim=1)
        prompt = (weights.view(b, -1, 1, 1, 1) * self.prompt_param).sum(1)
        prompt = F.interpolate(prompt, (h, w), mode="bilinear", align_corners=False)
        project = nn.Conv2d(self.prompt_dim, c, kernel_size=1, bias=False)  # root-cause
        return project(prompt)  # fails-here


class CPAEnhancer(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.embed = nn.Conv2d(3, dim, 3, padding=1)
        self.prompt = PromptGenBlock(prompt_dim=dim)
        self.fuse = nn.Conv2d(2 * dim, dim, 3, padding=1)
        self.out = nn.Conv2d(dim, 3, 3, padding=1)

    def forward(self, img):
        f = self.embed(img)
        f = self.fuse(torch.cat([f, self.prompt(f)], 1))
        return img + self.out(F.gelu(f))


class EnhancedDetector(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.enhancer = CPAEnhancer()
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.SiLU(), nn.Conv2d(32, 64, 3, 2, 1), nn.SiLU())
        self.head = nn.Conv2d(64, 5 + num_classes, 1)

    def forward(self, img):
        return self.head(self.backbone(self.enhancer(img)))


if __name__ == "__main__":
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    model = EnhancedDetector().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.937)
    for step in range(2):
        imgs = torch.rand(2, 3, 64, 64).to(device)
        pred = model(imgs)
        obj = torch.zeros_like(pred[:, 4])
        obj[:, 8, 8] = 1.0
        loss = F.binary_cross_entropy_with_logits(pred[:, 4], obj)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("step", step, "obj loss", round(loss.item(), 4))
