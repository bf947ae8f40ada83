"""Open-vocabulary detector node whose export saves only {'state_dict', 'names'} (tensors, strings and lists), and whose loader rebuilds WorldModel and reads the file with the default weights_only=True torch.load
source: https://github.com/ZHO-ZHO-ZHO/ComfyUI-YoloWorld-EfficientSAM/issues/102
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- nn/tasks.py
class WorldModel(nn.Module):
    def __init__(self, classes=("person", "car", "dog"), dim=32):
        super().__init__()
        self.names = list(classes)
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.SiLU(), nn.Conv2d(16, dim, 3, 2, 1), nn.SiLU())
        self.box_head = nn.Conv2d(dim, 4, 1)
        self.embed_head = nn.Conv2d(dim, dim, 1)
        self.register_buffer("txt_feats", F.normalize(torch.randn(len(classes), dim), dim=-1))

    def set_classes(self, names):
        self.names = list(names)
        self.txt_feats = F.normalize(torch.randn(len(names), self.txt_feats.shape[1]), dim=-1)

    def forward(self, x):
        f = self.backbone(x)
        boxes = self.box_head(f).flatten(2).transpose(1, 2)
        emb = F.normalize(self.embed_head(f).flatten(2).transpose(1, 2), dim=-1)
        return boxes, emb @ self.txt_feats.t()


# ---- export.py
def export_weights(path):
    model = WorldModel()
    model.set_classes(["person", "bicycle", "car", "traffic light"])
    torch.save({"state_dict": model.state_dict(), "names": model.names}, path)


# ---- node.py
class YoloWorldModelLoader:
    def __init__(self, models_dir):
        self.models_dir = models_dir

    def load_yolo_world_model(self, yolo_world_model="yolo_world_l.pt"):
        path = os.path.join(self.models_dir, yolo_world_model)
        ckpt = torch.load(path, map_location="cpu")
        model = WorldModel(ckpt["names"])
        model.load_state_dict(ckpt["state_dict"])
        return model.eval()


class YoloWorldDetect:
    def detect(self, model, image, confidence=0.1):
        with torch.no_grad():
            boxes, logits = model(image)
        scores, labels = logits.sigmoid().max(-1)
        keep = scores[0] > confidence
        return boxes[0][keep], [model.names[i] for i in labels[0][keep].tolist()]


if __name__ == "__main__":
    models_dir = tempfile.mkdtemp()
    export_weights(os.path.join(models_dir, "yolo_world_l.pt"))
    model = YoloWorldModelLoader(models_dir).load_yolo_world_model()
    boxes, names = YoloWorldDetect().detect(model, torch.rand(1, 3, 64, 64))
    print(len(names), "detections", names[:3])
