"""RF-Net keypoint detector + descriptor (example.py: model.detectAndCompute(img_path, device, (240, 320))): the detector builds its Gaussian smoothing kernel in __init__ as a plain tensor attribute instead of a registered buffer, so model.to(device) leaves it on the CPU while process() convolves CUDA score maps with it
source: https://github.com/xuelunshen/rfnet/issues/23
reported-error: File "model/rf_det_module.py", line 209, in process: padding=self.GAUSSIAN_KSIZE // 2, RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same
outcome: cuda-only: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same at line 48; on CPU: ok
root-cause: line 36
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# ---- config.py
cfg = {"MODEL": {"GAUSSIAN_KSIZE": 15, "GAUSSIAN_SIGMA": 0.5, "SCORE_NUM": 64, "PATCH_SIZE": 8, "DES_DIM": 32}}


# ---- utils/image_utils.py
def get_gauss_filter_weight(ksize, sig):
    mu_x = mu_y = ksize // 2
    if sig == 0:
        psf = torch.zeros((ksize, ksize)).float()
        psf[mu_y, mu_x] = 1.0
    else:
        xy = torch.stack(torch.meshgrid(torch.arange(ksize).float(), torch.arange(ksize).float(), indexing="ij"), -1)
        psf = torch.exp(-((xy - torch.tensor([mu_y, mu_x]).float()) ** 2).sum(-1) / (2 * sig ** 2))
    return psf / psf.sum()


# ---- model/rf_det_module.py
class RFDetModule(nn.Module):
    def __init__(self, score_com_strength=100.0, scale_com_strength=100.0):
        super().__init__()
        self.GAUSSIAN_KSIZE = cfg["MODEL"]["GAUSSIAN_KSIZE"]
        self.conv1 = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.InstanceNorm2d(16, affine=True), nn.LeakyReLU())
        self.conv_o = nn.Conv2d(16, 1, 1)
        self.gaussian_weight = get_gauss_filter_weight(self.GAUSSIAN_KSIZE, cfg["MODEL"]["GAUSSIAN_SIGMA"])[None, None]  # root-cause
        self.score_com_strength = score_com_strength

    def forward(self, photos):
        return self.conv_o(self.conv1(photos))

    def process(self, im1w_score):
        im1w_score = torch.sigmoid(im1w_score)
        im1w_score = F.conv2d(
            input=im1w_score,
            weight=self.gaussian_weight,
            padding=self.GAUSSIAN_KSIZE // 2,
        )  # fails-here
        return im1w_score


# ---- model/rf_des.py
class HardNetNeiMask(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                      nn.Linear(16, cfg["MODEL"]["DES_DIM"]))

    def forward(self, patches):
        return F.normalize(self.features(patches), dim=1)


# ---- model/rf_net_so.py
class RFNetSO(nn.Module):
    def __init__(self):
        super().__init__()
        self.det = RFDetModule()
        self.des = HardNetNeiMask()

    def inference(self, im_data):
        im_rawsc = self.det(im_data)
        im_score = self.det.process(im_rawsc)[0, 0]
        k = cfg["MODEL"]["SCORE_NUM"]
        idx = im_score.flatten().topk(k).indices
        h, w = im_score.shape
        kp = torch.stack([idx // w, idx % w], dim=1)
        p = cfg["MODEL"]["PATCH_SIZE"] // 2
        padded = F.pad(im_data, (p, p, p, p))
        patches = torch.stack([padded[0, :, y:y + 2 * p, x:x + 2 * p] for y, x in kp.tolist()])
        return kp, self.des(patches)

    def detectAndCompute(self, img, device, output_size):
        img = torch.from_numpy(img.astype(np.float32) / 255.0)[None, None]
        img = F.interpolate(img, size=output_size, mode="bilinear", align_corners=False).to(device)
        with torch.no_grad():
            kp, des = self.inference(img)
        return kp.cpu().numpy(), des.cpu().numpy()


if __name__ == "__main__":
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = RFNetSO().to(device).eval()
    rng = np.random.default_rng(0)
    img1 = rng.integers(0, 255, (120, 160), dtype=np.uint8)
    img2 = rng.integers(0, 255, (120, 160), dtype=np.uint8)
    kp1, des1 = model.detectAndCompute(img1, device, (60, 80))
    kp2, des2 = model.detectAndCompute(img2, device, (60, 80))
    matches = (des1 @ des2.T).argmax(1)
    print("keypoints", kp1.shape, "descriptors", des1.shape, "matches", matches[:5])
