"""Knowledge distillation where load_teacher() converts the frozen teacher CNN to float16 "to save memory", while the batches stay float32 for the student; the teacher forward in distill_step gets float32 images
source: https://github.com/cvlab-stonybrook/PathLDM/issues/16
reported-error: Tried to convert the model to fp16 using model.half() ... but I kept getting the error: RuntimeError: Input type (float) and bias type (c10::Half) should be the same
outcome: RuntimeError: Input type (float) and bias type (c10::Half) should be the same at line 37
root-cause: line 26
expect: DG004
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_cnn(width, n_classes=10):
    return nn.Sequential(
        nn.Conv2d(3, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(width, width, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(width, n_classes),
    )


def load_teacher():
    teacher = make_cnn(64)
    teacher.eval()
    for p in teacher.parameters():
        p.requires_grad_(False)
    return teacher.half()  # root-cause


class Distiller:
    def __init__(self, teacher, student, T=4.0, alpha=0.7):
        self.teacher, self.student = teacher, student
        self.T, self.alpha = T, alpha
        self.opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)

    def distill_step(self, images, labels):
        with torch.no_grad():
            t_logits = self.teacher(images)  # fails-here
        s_logits = self.student(images)
        kd = F.kl_div(F.log_softmax(s_logits / self.T, -1), F.softmax(t_logits.float() / self.T, -1), reduction="batchmean")
        loss = self.alpha * self.T ** 2 * kd + (1 - self.alpha) * F.cross_entropy(s_logits, labels)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


torch.manual_seed(0)
images = torch.rand(64, 3, 16, 16)
labels = torch.randint(0, 10, (64,))
d = Distiller(load_teacher(), make_cnn(16))
for epoch in range(2):
    for i in range(0, 64, 16):
        loss = d.distill_step(images[i:i + 16], labels[i:i + 16])
    print("epoch", epoch, "loss", round(loss, 4))
