"""DFace MTCNN detector: the image pyramid is normalised in NumPy (float64) and turned into a tensor as-is before P-Net's Conv2d
source: https://github.com/kuaikuaikim/dface/issues/33
reported-error: RuntimeError: Expected object of scalar type Double but got scalar type Float for argument #2 'weight'
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 26
root-cause: line 35
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn


class PNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre_layer = nn.Sequential(
            nn.Conv2d(3, 10, kernel_size=3, stride=1), nn.PReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
            nn.Conv2d(10, 16, kernel_size=3, stride=1), nn.PReLU(),
            nn.Conv2d(16, 32, kernel_size=3, stride=1), nn.PReLU(),
        )
        self.conv4_1 = nn.Conv2d(32, 1, kernel_size=1, stride=1)
        self.conv4_2 = nn.Conv2d(32, 4, kernel_size=1, stride=1)

    def forward(self, x):
        x = self.pre_layer(x)  # fails-here
        label = torch.sigmoid(self.conv4_1(x))
        offset = self.conv4_2(x)
        return label, offset


def convert_image_to_tensor(image):
    """HWC uint8 image -> normalised CHW tensor"""
    image = (image - 127.5) * 0.0078125
    return torch.from_numpy(image.transpose(2, 0, 1))  # root-cause


def resize_image(img, scale):
    h, w = img.shape[:2]
    nh, nw = int(h * scale), int(w * scale)
    rows = (np.arange(nh) / scale).astype(int)
    cols = (np.arange(nw) / scale).astype(int)
    return img[rows][:, cols]


class MtcnnDetector:
    def __init__(self, pnet, min_face_size=24, scale_factor=0.709):
        self.pnet_detector = pnet
        self.min_face_size = min_face_size
        self.scale_factor = scale_factor

    def detect_pnet(self, im):
        current_scale = 12.0 / self.min_face_size
        im_resized = resize_image(im, current_scale)
        all_boxes = []
        while min(im_resized.shape[:2]) > 12:
            feed_imgs = convert_image_to_tensor(im_resized).unsqueeze(0)
            cls_map, reg = self.pnet_detector(feed_imgs)
            keep = (cls_map[0, 0] > 0.6).nonzero()
            all_boxes.append(keep.float() / current_scale)
            current_scale *= self.scale_factor
            im_resized = resize_image(im, current_scale)
        return all_boxes

    def detect_face(self, img):
        boxes_align = self.detect_pnet(img)
        return boxes_align, None


if __name__ == "__main__":
    img = np.random.default_rng(0).integers(0, 256, size=(120, 160, 3), dtype=np.uint8)
    mtcnn_detector = MtcnnDetector(PNet().eval())
    with torch.no_grad():
        bboxs, landmarks = mtcnn_detector.detect_face(img)
    print(len(bboxs), "pyramid levels")
