"""MTCNN-style face detector test script: each pyramid level is resized and normalised in NumPy, and convert_image_to_tensor hands the float64 array to the PNet convolutions
source: https://github.com/kuaikuaikim/dface/issues/39
reported-error: RuntimeError: expected scalar type Double but found Float
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 31
root-cause: line 17
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def convert_image_to_tensor(image):
    """HWC image -> CHW tensor (what transforms.ToTensor does for non-uint8 arrays: no scaling, no cast)."""
    image = np.ascontiguousarray(image.transpose((2, 0, 1)))
    return torch.from_numpy(image)  # root-cause


class PNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre_layer = nn.Sequential(
            nn.Conv2d(3, 10, kernel_size=3, stride=1), nn.PReLU(), nn.MaxPool2d(kernel_size=2, stride=2),
            nn.Conv2d(10, 16, kernel_size=3, stride=1), nn.PReLU(),
            nn.Conv2d(16, 32, kernel_size=3, stride=1), nn.PReLU())
        self.conv4_1 = nn.Conv2d(32, 1, kernel_size=1, stride=1)
        self.conv4_2 = nn.Conv2d(32, 4, kernel_size=1, stride=1)

    def forward(self, x):
        x = self.pre_layer(x)  # fails-here
        return torch.sigmoid(self.conv4_1(x)), self.conv4_2(x)


class MtcnnDetector:
    def __init__(self, pnet, min_face_size=12, scale_factor=0.709):
        self.pnet_detector = pnet
        self.min_face_size = min_face_size
        self.scale_factor = scale_factor

    def resize_image(self, img, scale):
        height, width, _ = img.shape
        new_h, new_w = int(height * scale), int(width * scale)
        rows = (np.arange(new_h) / scale).astype(int)
        cols = (np.arange(new_w) / scale).astype(int)
        img_resized = img[rows][:, cols]
        return (img_resized - 127.5) / 128

    def detect_pnet(self, im):
        current_scale = float(12) / self.min_face_size
        im_resized = self.resize_image(im, current_scale)
        boxes = []
        while min(im_resized.shape[:2]) > 12:
            feed_imgs = convert_image_to_tensor(im_resized).unsqueeze(0)
            with torch.no_grad():
                cls_map, reg = self.pnet_detector(feed_imgs)
            boxes.append(int((cls_map > 0.6).sum()))
            current_scale *= self.scale_factor
            im_resized = self.resize_image(im, current_scale)
        return boxes


if __name__ == "__main__":
    img = np.random.default_rng(0).integers(0, 256, (96, 128, 3), dtype=np.uint8)
    detector = MtcnnDetector(PNet().eval(), min_face_size=24)
    print("candidate windows per scale:", detector.detect_pnet(img))
