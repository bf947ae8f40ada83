"""Captcha OCR transformer with one weighted CrossEntropyLoss per character position (LightningModule-style): the criterions are kept in a plain Python list built in __init__, so moving the module to the GPU moves the network but not the loss weights
source: https://github.com/Lightning-AI/pytorch-lightning/issues/2984
reported-error: CrossEntropyLoss with weights: I need weights in CrossEntropyLoss (self.criterions.append(torch.nn.CrossEntropyLoss(weight=weight)) in __init__), the validation step fails because the weight tensor is not on the model's device
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but got weight is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_nll_loss_forward) (the per-position weights live in a Python list and are not moved by .to(device); wording varies with the torch version; not run on a GPU for this set) at line 31; on CPU: ok
root-cause: line 22
expect: DG009
"""
import torch
import torch.nn as nn

ALPHABET = 36
POSITIONS = 2


class CaptchaTransformer(nn.Module):
    def __init__(self, letter_weights_per_position):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(1, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d((1, POSITIONS)))
        self.head = nn.Linear(8, ALPHABET)
        self.criterions = []
        for weight in letter_weights_per_position:
            self.criterions.append(nn.CrossEntropyLoss(weight=weight))  # root-cause

    def forward(self, im):
        feats = self.backbone(im).squeeze(2).transpose(1, 2)
        return self.head(feats)

    def validation_step(self, batch):
        batch_im, batch_true_value_NT = batch
        out_NTA = self(batch_im)
        loss0 = self.criterions[0](out_NTA[:, 0, :], batch_true_value_NT[:, 0])  # fails-here
        loss1 = self.criterions[1](out_NTA[:, 1, :], batch_true_value_NT[:, 1])
        return loss0 + loss1


if __name__ == "__main__":
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    weights = [torch.ones(ALPHABET) for _ in range(POSITIONS)]
    model = CaptchaTransformer(weights).to(device).eval()
    batch = (torch.rand(4, 1, 24, 48, device=device), torch.randint(0, ALPHABET, (4, POSITIONS), device=device))
    with torch.no_grad():
        print(f"val_loss {model.validation_step(batch).item():.3f}")
