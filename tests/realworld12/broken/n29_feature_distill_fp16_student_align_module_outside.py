"""Feature-distillation trainer (teacher kept in float16 under no_grad, student run under fp16 autocast) whose student_forward() returns the autocast neck features; the float32 align_module that maps them to the teacher width is applied later in distill_loss(), outside the autocast block
source: https://github.com/open-mmlab/mmrazor/issues/190
reported-error: distillation in fp16 mode crashes when align_module is set: the align_module's weight is fp32 but the student's outputs are fp16
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Half and Float at line 46
root-cause: line 42
expect: DG017
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, width, n_classes=10):
        super().__init__()
        self.neck = nn.Sequential(nn.Conv2d(3, width, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(width, n_classes)

    def forward(self, x):
        feat = self.neck(x)
        return feat, self.head(feat)


class Distiller:
    def __init__(self, teacher, student, tau=4.0):
        self.teacher = teacher.half().eval().requires_grad_(False)
        self.student = student
        self.align_module = nn.Linear(16, 64)
        params = list(student.parameters()) + list(self.align_module.parameters())
        self.opt = torch.optim.SGD(params, lr=0.05, momentum=0.9)
        self.scaler = torch.amp.GradScaler("cpu")
        self.tau = tau

    @torch.no_grad()
    def teacher_forward(self, x):
        feat, logits = self.teacher(x.half())
        return feat.float(), logits.float()

    def student_forward(self, x):
        with torch.autocast("cpu", dtype=torch.float16):
            feat, logits = self.student(x)  # root-cause
        return feat, logits

    def distill_loss(self, s_feat, s_logits, t_feat, t_logits, labels):
        feat_loss = F.mse_loss(self.align_module(s_feat), t_feat)  # fails-here
        kd = F.kl_div(F.log_softmax(s_logits.float() / self.tau, -1), F.softmax(t_logits / self.tau, -1),
                      reduction="batchmean") * self.tau ** 2
        return feat_loss + kd + F.cross_entropy(s_logits.float(), labels)

    def train_step(self, x, labels):
        t_feat, t_logits = self.teacher_forward(x)
        s_feat, s_logits = self.student_forward(x)
        loss = self.distill_loss(s_feat, s_logits, t_feat, t_logits, labels)
        self.opt.zero_grad()
        self.scaler.scale(loss).backward()
        self.scaler.step(self.opt)
        self.scaler.update()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    distiller = Distiller(Net(64), Net(16))
    for it in range(3):
        x, y = torch.rand(8, 3, 32, 32), torch.randint(0, 10, (8,))
        print(f"iter {it}: loss {distiller.train_step(x, y):.4f}")
