"""Continual-learning fine-tune with zero-shot distillation (ZSCL-like, pure torch): the replay buffer stores the teacher's hard labels in a float32 array next to the soft scores; cross_entropy on the class-index path then receives 1-D float targets
source: https://github.com/Thunderbeee/ZSCL/issues/6
reported-error: Runtime Error: Expected object of scalar type Long but got scalar type Float for argument #2 'target' in call to _thnn_nll_loss_forward
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 52
root-cause: line 33
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ImageTextModel(nn.Module):
    def __init__(self, dim=32, n_classes=5):
        super().__init__()
        self.visual = nn.Sequential(nn.Flatten(), nn.Linear(3 * 16 * 16, 64), nn.ReLU(), nn.Linear(64, dim))
        self.class_text = nn.Parameter(torch.randn(n_classes, dim))
        self.logit_scale = nn.Parameter(torch.tensor(2.0))

    def forward(self, images):
        img = F.normalize(self.visual(images), dim=-1)
        txt = F.normalize(self.class_text, dim=-1)
        return self.logit_scale.exp() * img @ txt.t()


class ReplayBuffer:
    """Reference images with the frozen teacher's predictions, collected before the new task."""

    def __init__(self, capacity=64, n_classes=5):
        self.images = np.zeros((capacity, 3, 16, 16), dtype=np.float32)
        self.soft = np.zeros((capacity, n_classes), dtype=np.float32)
        self.hard = np.zeros(capacity, dtype=np.float32)  # root-cause
        self.size = 0

    @torch.no_grad()
    def fill(self, teacher, images):
        logits = teacher(images)
        n = len(images)
        self.images[:n] = images.numpy()
        self.soft[:n] = logits.softmax(-1).numpy()
        self.hard[:n] = logits.argmax(-1).numpy()
        self.size = n

    def sample(self, k, rng):
        idx = rng.choice(self.size, k, replace=False)
        return (torch.from_numpy(self.images[idx]), torch.from_numpy(self.soft[idx]),
                torch.from_numpy(self.hard[idx]))


def distill_loss(student_logits, targets):
    return F.cross_entropy(student_logits, targets)  # fails-here


def train_task(student, buffer, task_images, task_labels, rng, steps=5, lam=1.0):
    opt = torch.optim.AdamW(student.parameters(), lr=1e-4)
    for _ in range(steps):
        ref_images, _, ref_hard = buffer.sample(16, rng)
        loss = F.cross_entropy(student(task_images), task_labels) + lam * distill_loss(student(ref_images), ref_hard)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    teacher = ImageTextModel().eval()
    student = ImageTextModel()
    student.load_state_dict(teacher.state_dict())
    buffer = ReplayBuffer()
    buffer.fill(teacher, torch.rand(64, 3, 16, 16))
    task_images, task_labels = torch.rand(16, 3, 16, 16), torch.randint(0, 5, (16,))
    print("loss", train_task(student, buffer, task_images, task_labels, rng))
