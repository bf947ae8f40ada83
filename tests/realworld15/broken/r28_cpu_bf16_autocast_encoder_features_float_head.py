"""CPU inference/fine-tune helper: FeatureExtractor.encode() runs the backbone under torch.autocast(device_type="cpu", dtype=torch.bfloat16) and returns the bfloat16 features; the float32 classification head is applied by the caller after the autocast block has closed
source: https://github.com/huggingface/accelerate/issues/1420
reported-error: RuntimeError: Found dtype Float but expected BFloat16 on a CPU (mixed bf16 autocast outputs and float32 tensors)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 31
root-cause: line 21
expect: DG017
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class FeatureExtractor(nn.Module):
    def __init__(self, in_dim=48, width=64):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, width), nn.GELU(), nn.Linear(width, width))

    def encode(self, x, use_amp=True):
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=use_amp):
            feats = self.backbone(x)  # root-cause
        return feats


class Classifier(nn.Module):
    def __init__(self, width=64, n_classes=5):
        super().__init__()
        self.head = nn.Linear(width, n_classes)

    def forward(self, feats):
        return self.head(feats)  # fails-here


def predict(extractor, classifier, batch):
    feats = extractor.encode(batch)
    return classifier(feats).argmax(-1)


extractor, classifier = FeatureExtractor(), Classifier()
print("predictions", predict(extractor, classifier, torch.randn(16, 48)).tolist())
